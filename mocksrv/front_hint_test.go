package mocksrv

import (
	"errors"
	"slices"
	"testing"
)

// TestHandshakeFailHint: a refused handshake message ends the dialogue
// with ds-server's line, printed once on Options.Stderr (Logged), and
// dsmock's hint quoting what arrived and naming the likely framing
// mismatch; a message without its '\n' under -n gets ds-server's line
// (not printed yet) and its own hint.
func TestHandshakeFailHint(t *testing.T) {
	for _, tc := range []struct {
		name      string
		nl, cfgNL bool
		msgs      []string // the last one fails
		stderr    string   // printed by the text front itself
		msg, hint string
		logged    bool
	}{
		{"lower case", false, false, []string{"helo"}, "ERR: invalid message (helo)!\n",
			"ERR: invalid message (helo)!", `the client's first message was "helo", not "HELO": commands are upper case`, true},
		{"newline client, plain server", false, false, []string{"HELO\n"}, "ERR: invalid message (HELO\n)!\n",
			"ERR: invalid message (HELO\n)!", `the client's first message was "HELO\n", not "HELO": does the client end messages with a newline while dsmock runs without -n?`, true},
		{"windows line end, plain server", false, false, []string{"HELO\r\n"}, "ERR: invalid message (HELO\r\n)!\n",
			"ERR: invalid message (HELO\r\n)!", `the client's first message was "HELO\r\n", not "HELO": does the client end messages with Windows line ends (\r\n)? without -n, dsmock expects no line end at all`, true},
		{"windows line end, -n", true, false, []string{"HELO\r\n"}, "ERR: invalid message (HELO\r)!\n",
			"ERR: invalid message (HELO\r)!", `the client's first message was "HELO\r\n", not "HELO\n": does the client end messages with Windows line ends (\r\n)? -n expects \n alone`, true},
		{"windows line end, config newline", true, true, []string{"HELO\r\n"}, "ERR: invalid message (HELO\r)!\n",
			"ERR: invalid message (HELO\r)!", `the client's first message was "HELO\r\n", not "HELO\n": does the client end messages with Windows line ends (\r\n)? the config's newline="true" expects \n alone`, true},
		// ds-server reads a message as a C string: the NUL of the length
		// prefix ends it, so it sees an empty message.
		{"java writeUTF", false, false, []string{"\x00\x04HELO"}, "ERR: invalid message ()!\n",
			"ERR: invalid message ()!", `the client's first message was "\x00\x04HELO", not "HELO": does it start with a Java writeUTF length prefix (2 bytes)? send the text's bytes alone (write(s.getBytes()))`, true},
		{"leading space", false, false, []string{" HELO"}, "ERR: invalid message ( HELO)!\n",
			"ERR: invalid message ( HELO)!", `the client's first message was " HELO", not "HELO": nothing may come before or after the command`, true},
		{"something else", false, false, []string{"HELLO"}, "ERR: invalid message (HELLO)!\n",
			"ERR: invalid message (HELLO)!", `the client's first message was "HELLO", not "HELO"`, true},
		{"bare AUTH", false, false, []string{"HELO", "AUTH"}, "ERR: invalid message (AUTH)!\n",
			"ERR: invalid message (AUTH)!", `the client's second message was "AUTH", not AUTH and a user name ("AUTH alice")`, true},
		{"bare AUTH, -n", true, false, []string{"HELO\n", "AUTH\n"}, "ERR: invalid message (AUTH)!\n",
			"ERR: invalid message (AUTH)!", `the client's second message was "AUTH\n", not AUTH and a user name ("AUTH alice\n")`, true},
		{"NUL inside the first message", false, false, []string{"HELX\x00zz"}, "ERR: invalid message (HELX)!\n",
			"ERR: invalid message (HELX)!", `the client's first message was "HELX\x00zz", not "HELO"`, true},
		{"NUL before the newline, -n", true, false, []string{"HELO\x00\n"}, "",
			"No new line character at the end of HELO!", `the client's message "HELO\x00\n" has a NUL byte before its \n: ds-server reads a message up to its first NUL byte, so the \n is not seen`, false},
		{"plain client, -n", true, false, []string{"HELO"}, "",
			"No new line character at the end of HELO!", `the client's message "HELO" does not end with \n: does the client end each message with \n? (-n expects it)`, false},
		{"plain client, config newline", true, true, []string{"HELO"}, "",
			"No new line character at the end of HELO!", `the client's message "HELO" does not end with \n: does the client end each message with \n? (the config's newline="true" expects it)`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := tinyConfig()
			cfg.Newline = tc.cfgNL
			d := newDlg(t, cfg, Options{Newline: tc.nl})
			var err error
			for _, m := range tc.msgs {
				_, _, err = d.tx.Handle(m)
			}
			var f *Fatal
			if !errors.As(err, &f) {
				t.Fatalf("err = %v, want a *Fatal", err)
			}
			if f.Msg != tc.msg || f.Hint != tc.hint || f.Logged != tc.logged || d.stderr.String() != tc.stderr {
				t.Errorf("Fatal{Msg %q, Logged %v, Hint %q}, stderr %q\nwant  {Msg %q, Logged %v, Hint %q}, stderr %q",
					f.Msg, f.Logged, f.Hint, d.stderr.String(), tc.msg, tc.logged, tc.hint, tc.stderr)
			}
		})
	}
}

// A server binary's stderr line gets the hint of the framing mismatch it
// shows, with the message as the client sent it; other lines get none.
func TestFramingHint(t *testing.T) {
	for _, tc := range []struct {
		line string
		nl   bool
		want string
	}{
		{"No new line character at the end of HELO!", true, `the client's message "HELO" does not end with \n: does the client end each message with \n? (-n expects it)`},
		{"No new line character at the end of !", true, ""},
		{"ERR: invalid message (HELO\n)!", false, `the client's message "HELO\n" was refused: does the client end messages with a newline while the server runs without -n?`},
		{"ERR: invalid message (HELO\r)!", true, `the client's message "HELO\r\n" was refused: does the client end messages with Windows line ends (\r\n)? -n expects \n alone`},
		{"ERR: invalid message (AUTH\r\n)!", false, `the client's message "AUTH\r\n" was refused: does the client end messages with Windows line ends (\r\n)? without -n, the server expects no line end at all`},
		{"ERR: invalid message (HELLO)!", false, ""},
		{"ERR: invalid message (HELO", false, ""},
		{"99: Out of bound! (0 - 3); Server ID", false, ""},
	} {
		if got := FramingHint(tc.line, tc.nl); got != tc.want {
			t.Errorf("FramingHint(%q, %v) = %q, want %q", tc.line, tc.nl, got, tc.want)
		}
	}
}

// A refused message with a newline in it is one line of a server's
// stderr; the lines that end a session are told from the others.
func TestSplitStderrAndEndsSession(t *testing.T) {
	lines := SplitStderr("No such server type by x exists!\nERR: invalid message (HELO\n)!\ndsmock: the client disconnected without QUIT; send QUIT after NONE\nNo new line character at the end of HELO!")
	want := []string{"No such server type by x exists!", "ERR: invalid message (HELO\n)!", "dsmock: the client disconnected without QUIT; send QUIT after NONE", "No new line character at the end of HELO!"}
	if !slices.Equal(lines, want) {
		t.Fatalf("SplitStderr: %q, want %q", lines, want)
	}
	for i, ends := range []bool{false, true, true, true} {
		if EndsSession(lines[i]) != ends {
			t.Errorf("EndsSession(%q) = %v, want %v", lines[i], !ends, ends)
		}
	}
}

// A session's end prints ds-server's line unless it is out already, then
// the hint as dsmock's.
func TestFatalStderrLines(t *testing.T) {
	for _, tc := range []struct {
		f    Fatal
		want []string
	}{
		{Fatal{Msg: "m"}, []string{"m"}},
		{Fatal{Msg: "m", Hint: "h"}, []string{"m", "dsmock: h"}},
		{Fatal{Msg: "m", Hint: "h", Logged: true}, []string{"dsmock: h"}},
		{Fatal{Msg: "m", Logged: true}, nil},
	} {
		if got := tc.f.StderrLines(); !slices.Equal(got, tc.want) {
			t.Errorf("%+v: %q, want %q", tc.f, got, tc.want)
		}
	}
}
