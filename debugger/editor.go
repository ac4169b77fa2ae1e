package debugger

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode"
)

// editor is a small line editor for terminals in raw mode: insertion at
// the cursor, Left/Right, Home/End (also Ctrl-A/E), Backspace, Delete
// (and Ctrl-D on a non-empty line), Ctrl-K/U/W to kill, Ctrl-L to redraw,
// Up/Down (Ctrl-P/N) through the history, Ctrl-C to drop the line,
// Ctrl-D on an empty line for end of input.
type editor struct {
	in   *bufio.Reader
	out  *bufio.Writer
	hist []string
}

func newEditor(in io.Reader, out *bufio.Writer) *editor {
	return &editor{in: bufio.NewReader(in), out: out}
}

// maxHistory bounds the history.
const maxHistory = 500

// readLine reads one line, echoing and editing it.
func (e *editor) readLine(prompt string) (string, error) {
	var buf []rune
	pos := 0
	hi := len(e.hist) // history index; len: the line being edited
	saved := ""       // the line being edited while browsing the history
	redraw := func() {
		fmt.Fprintf(e.out, "\r%s%s\x1b[K", prompt, string(buf))
		if n := len(buf) - pos; n > 0 {
			fmt.Fprintf(e.out, "\x1b[%dD", n)
		}
		e.out.Flush()
	}
	setLine := func(s string) {
		buf = []rune(s)
		pos = len(buf)
	}
	redraw()
	for {
		r, _, err := e.in.ReadRune()
		if err != nil {
			if len(buf) > 0 && err == io.EOF {
				fmt.Fprint(e.out, "\r\n")
				e.out.Flush()
				return e.done(string(buf)), nil
			}
			fmt.Fprint(e.out, "\r\n")
			e.out.Flush()
			return "", err
		}
		switch r {
		case '\r', '\n':
			fmt.Fprint(e.out, "\r\n")
			e.out.Flush()
			return e.done(string(buf)), nil
		case 3: // Ctrl-C
			fmt.Fprint(e.out, "^C\r\n")
			buf, pos, hi = buf[:0], 0, len(e.hist)
		case 4: // Ctrl-D
			if len(buf) == 0 {
				fmt.Fprint(e.out, "\r\n")
				e.out.Flush()
				return "", io.EOF
			}
			if pos < len(buf) {
				buf = append(buf[:pos], buf[pos+1:]...)
			}
		case 127, 8: // Backspace
			if pos > 0 {
				buf = append(buf[:pos-1], buf[pos:]...)
				pos--
			}
		case 1: // Ctrl-A
			pos = 0
		case 5: // Ctrl-E
			pos = len(buf)
		case 2: // Ctrl-B
			if pos > 0 {
				pos--
			}
		case 6: // Ctrl-F
			if pos < len(buf) {
				pos++
			}
		case 11: // Ctrl-K
			buf = buf[:pos]
		case 21: // Ctrl-U
			buf, pos = append(buf[:0], buf[pos:]...), 0
		case 23: // Ctrl-W
			i := pos
			for i > 0 && buf[i-1] == ' ' {
				i--
			}
			for i > 0 && buf[i-1] != ' ' {
				i--
			}
			buf, pos = append(buf[:i], buf[pos:]...), i
		case 12: // Ctrl-L
			fmt.Fprint(e.out, "\x1b[H\x1b[2J")
		case 16, 14: // Ctrl-P, Ctrl-N
			hi, saved = e.browse(r == 16, hi, saved, string(buf), setLine)
		case 27: // escape sequence
			k := e.escape()
			switch k {
			case "A", "B":
				hi, saved = e.browse(k == "A", hi, saved, string(buf), setLine)
			case "C":
				if pos < len(buf) {
					pos++
				}
			case "D":
				if pos > 0 {
					pos--
				}
			case "H", "1~", "7~":
				pos = 0
			case "F", "4~", "8~":
				pos = len(buf)
			case "3~":
				if pos < len(buf) {
					buf = append(buf[:pos], buf[pos+1:]...)
				}
			}
		default:
			if r == '\t' {
				r = ' '
			}
			if unicode.IsPrint(r) {
				buf = append(buf, 0)
				copy(buf[pos+1:], buf[pos:])
				buf[pos] = r
				pos++
			}
		}
		redraw()
	}
}

// escape reads the rest of an escape sequence (after ESC) and returns its
// final part: "A" for ESC [ A, "3~" for ESC [ 3 ~, "H" for ESC O H.
func (e *editor) escape() string {
	b, err := e.in.ReadByte()
	if err != nil || (b != '[' && b != 'O') {
		return ""
	}
	var sb strings.Builder
	for i := 0; i < 8; i++ {
		c, err := e.in.ReadByte()
		if err != nil {
			return ""
		}
		sb.WriteByte(c)
		if c >= 0x40 && c <= 0x7e {
			break
		}
	}
	return sb.String()
}

// browse moves through the history (up: older).
func (e *editor) browse(up bool, hi int, saved, cur string, set func(string)) (int, string) {
	switch {
	case up && hi > 0:
		if hi == len(e.hist) {
			saved = cur
		}
		hi--
		set(e.hist[hi])
	case !up && hi < len(e.hist):
		hi++
		if hi == len(e.hist) {
			set(saved)
		} else {
			set(e.hist[hi])
		}
	}
	return hi, saved
}

// done records a finished line in the history.
func (e *editor) done(line string) string {
	if t := strings.TrimSpace(line); t != "" && (len(e.hist) == 0 || e.hist[len(e.hist)-1] != line) {
		e.hist = append(e.hist, line)
		if len(e.hist) > maxHistory {
			e.hist = e.hist[len(e.hist)-maxHistory:]
		}
	}
	return line
}
