package protocol

import (
	"errors"
	"strings"
)

// ServerError is an ERR reply: the server refused a command. Text is the
// server's whole reply ("ERR: No such waiting job exists", or just "ERR").
// The simulation is unchanged after an ERR (ds-server.md §5.1).
type ServerError struct {
	Command string // the command that was refused, as sent
	Text    string
}

func (e *ServerError) Error() string {
	return "server refused " + quoteCmd(e.Command) + ": " + e.Text
}

// Reason returns the server's text without the "ERR: " prefix.
func (e *ServerError) Reason() string {
	return strings.TrimPrefix(strings.TrimPrefix(e.Text, "ERR"), ": ")
}

// IsServerError reports whether err is (or wraps) an ERR reply.
func IsServerError(err error) bool {
	var se *ServerError
	return errors.As(err, &se)
}

// IsErrReply reports whether a server message is an ERR reply.
func IsErrReply(msg string) bool {
	return msg == "ERR" || strings.HasPrefix(msg, "ERR:")
}

func quoteCmd(c string) string { return "\"" + c + "\"" }
