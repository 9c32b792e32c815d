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
// cmd is the command the user ran (dsmock, dsbench), named in the hint.
func handshakeHint(raw string, first, nl, nlFromConfig bool, cmd string) string {
	end := ""
	if nl {
		end = "\n"
	}
	what, want := "second message", "AUTH and a user name ("+strconv.Quote("AUTH alice"+end)+")"
	if first {
		what, want = "first message", strconv.Quote("HELO"+end)
	}
	h := "the client's " + what + " was " + strconv.Quote(raw) + ", not " + want
	if q := framingQuestion(raw, first, nl, nlFromConfig, cmd); q != "" {
		h += ": " + q
	}
	return h
}

// framingQuestion names the likely cause of a refused handshake message,
// "" when none is apparent; server names the server in the question.
func framingQuestion(raw string, first, nl, nlFromConfig bool, server string) string {
	body := strings.TrimSuffix(raw, "\n")
	switch {
	case len(raw) >= 2 && int(raw[0])<<8|int(raw[1]) == len(raw)-2 && raw[0] < ' ':
		return "does it start with a Java writeUTF length prefix (2 bytes)? send the text's bytes alone (write(s.getBytes()))"
	case strings.HasSuffix(raw, "\r\n") && nl:
		return `does the client end messages with Windows line ends (\r\n)? ` + newlineFlag(nlFromConfig, server) + ` expects \n alone`
	case strings.HasSuffix(raw, "\r\n"):
		return `does the client end messages with Windows line ends (\r\n)? without -n, ` + server + ` expects no line end at all`
	case strings.HasSuffix(raw, "\n") && !nl:
		return "does the client end messages with a newline while " + server + " runs without -n?"
	case first && strings.EqualFold(body, "HELO"):
		return "commands are upper case"
	case first && strings.TrimSpace(body) == "HELO":
		return "nothing may come before or after the command"
	}
	return ""
}

// The lines ds-server prints as it ends a session on a message it cannot
// read: a refused handshake message, and one without its newline under -n.
const (
	invalidMessage = "ERR: invalid message ("
	noNewline      = "No new line character at the end of "
)

// FramingHint is the hint for a line a server binary (ds-server, dsmock)
// printed as it ended a session, for a program that has only its stderr
// (a Text session gives its own in Fatal.Hint): what the client sent and
// the likely framing mismatch, "" for any other line or when none is
// apparent. nl says that the server ran with -n; line is as printed, a
// newline in the refused message included.
func FramingHint(line string, nl bool) string {
	if msg, ok := strings.CutPrefix(line, noNewline); ok {
		if msg, ok = strings.CutSuffix(msg, "!"); ok && msg != "" { // "": the client disconnected
			return noNewlineHint(msg, false, "")
		}
		return ""
	}
	raw, ok := strings.CutPrefix(line, invalidMessage)
	if raw, ok = strings.CutSuffix(raw, ")!"); !ok {
		return ""
	}
	if nl {
		raw += "\n" // ds-server prints the message without its newline
	}
	// Not "first message": ds-server refuses messages this way before the
	// first REDY too, so only the question is asked.
	if q := framingQuestion(raw, !strings.HasPrefix(raw, "AUTH"), nl, false, "the server"); q != "" {
		return "the client's message " + strconv.Quote(raw) + " was refused: " + q
	}
	return ""
}

// EndsSession reports whether a line of a server binary's stderr is one
// it prints as a session ends on a message it cannot read (FramingHint's
// lines), or dsmock's for a client that disconnected without QUIT: the
// line that says why a session ended, where others (a refused command,
// a warning) may say nothing about it. A Refusal may not end it.
func EndsSession(line string) bool {
	return strings.HasPrefix(line, invalidMessage) || strings.HasPrefix(line, noNewline) ||
		strings.HasPrefix(line, "dsmock: "+ErrDisconnected.Error())
}

// Refusal reports whether a line of a server binary's stderr is its
// refusal of a message ("ERR: invalid message (…)!"), one of EndsSession's
// lines that ends the session only at the handshake: after AUTH a message
// other than REDY or GETS is refused the same way and the session goes on,
// so a line printed after it says more.
func Refusal(line string) bool {
	return strings.HasPrefix(line, invalidMessage)
}

// SplitStderr splits a server binary's stderr into the lines it printed:
// a refused message with a newline in it ("ERR: invalid message (HELO\n)!"
// from a newline-framed client of a plain server) is one line, whole.
func SplitStderr(stderr string) []string {
	var lines []string
	for rest := stderr; rest != ""; {
		line, after, _ := strings.Cut(rest, "\n")
		if strings.HasPrefix(line, invalidMessage) && !strings.HasSuffix(line, ")!") {
			if i := strings.Index(rest, ")!"); i >= 0 {
				line, after = rest[:i+2], strings.TrimPrefix(rest[i+2:], "\n")
			}
		}
		lines = append(lines, line)
		rest = after
	}
	return lines
}

// noNewlineHint explains ds-server's "No new line character at the end of
// …!": the message (raw) arrived without the '\n' that -n requires.
func noNewlineHint(raw string, nlFromConfig bool, cmd string) string {
	return "the client's message " + strconv.Quote(raw) + ` does not end with \n: does the client end each message with \n? (` +
		newlineFlag(nlFromConfig, cmd) + " expects it)"
}

// newlineFlag names what put the server in newline mode: the config, or
// the -n of the command the user ran (cmd; dsmock's own hints and a
// server binary's say -n alone).
func newlineFlag(fromConfig bool, cmd string) string {
	switch {
	case fromConfig:
		return `the config's newline="true"`
	case cmd == "" || cmd == "dsmock" || cmd == "the server":
		return "-n"
	}
	return cmd + " -n"
}

// nulHint explains a newline-mode message cut short by a NUL byte: ds-server
// reads its messages as C strings, so what follows the NUL, its '\n'
// included, is not seen.
func nulHint(raw string) string {
	return "the client's message " + strconv.Quote(raw) + ` has a NUL byte before its \n: ds-server reads a message up to its first NUL byte, so the \n is not seen`
}
