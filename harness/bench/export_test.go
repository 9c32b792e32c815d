package bench

// ServerGrace is serverGrace, for the external tests.
const ServerGrace = serverGrace
