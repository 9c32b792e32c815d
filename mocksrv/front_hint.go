package mocksrv

import (
	"strconv"
	"strings"
)

// A client whose framing does not match the server's fails at its first
// message, where ds-server prints only "ERR: invalid message (HELO\n)!":
// on a terminal the newline, or a "\r" that moves the cursor back, makes
// the message look right. These hints, for Fatal.Hint, quote what arrived
// and name the likely mismatch.

// handshakeHint explains a refused HELO (first) or AUTH message; raw is
// the message as received, nl says that the server runs with -n.
func handshakeHint(raw string, first, nl, nlFromConfig bool) string {
	end := ""
	if nl {
		end = "\n"
	}
	what, want := "second message", "AUTH and a user name ("+strconv.Quote("AUTH alice"+end)+")"
	if first {
		what, want = "first message", strconv.Quote("HELO"+end)
	}
	h := "the client's " + what + " was " + strconv.Quote(raw) + ", not " + want
	if q := framingQuestion(raw, first, nl, nlFromConfig); q != "" {
		h += ": " + q
	}
	return h
}

// framingQuestion names the likely cause of a refused handshake message,
// "" when none is apparent.
func framingQuestion(raw string, first, nl, nlFromConfig bool) string {
	body := strings.TrimSuffix(raw, "\n")
	switch {
	case len(raw) >= 2 && int(raw[0])<<8|int(raw[1]) == len(raw)-2 && raw[0] < ' ':
		return "does it start with a Java writeUTF length prefix (2 bytes)? send the text's bytes alone (write(s.getBytes()))"
	case strings.HasSuffix(raw, "\r\n") && nl:
		return `does the client end messages with Windows line ends (\r\n)? ` + newlineFlag(nlFromConfig) + ` expects \n alone`
	case strings.HasSuffix(raw, "\r\n"):
		return `does the client end messages with Windows line ends (\r\n)? without -n, dsmock expects no line end at all`
	case strings.HasSuffix(raw, "\n") && !nl:
		return "does the client end messages with a newline while dsmock runs without -n?"
	case first && strings.EqualFold(body, "HELO"):
		return "commands are upper case"
	case first && strings.TrimSpace(body) == "HELO":
		return "nothing may come before or after the command"
	}
	return ""
}

// noNewlineHint explains ds-server's "No new line character at the end of
// …!": the message (raw) arrived without the '\n' that -n requires.
func noNewlineHint(raw string, nlFromConfig bool) string {
	return "the client's message " + strconv.Quote(raw) + ` does not end with \n: does the client end each message with \n? (` +
		newlineFlag(nlFromConfig) + " expects it)"
}

// newlineFlag names what put the server in newline mode.
func newlineFlag(fromConfig bool) string {
	if fromConfig {
		return `the config's newline="true"`
	}
	return "-n"
}
