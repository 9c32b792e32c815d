package strategies

// Unregister is for the external tests: a strategy registered by a test
// must not outlive it (every registered strategy is held to the records
// contract).
var Unregister = unregister
