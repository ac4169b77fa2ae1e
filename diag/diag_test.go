package diag_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/smsim/smsim/diag"
)

func TestError(t *testing.T) {
	for _, c := range []struct {
		e    diag.Error
		want string
	}{
		{diag.Error{Pos: diag.Pos{File: "k.ptx", Line: 3, Col: 7}, Msg: "unsupported: mul24"}, "k.ptx:3:7: unsupported: mul24"},
		{diag.Error{Pos: diag.Pos{Line: 1, Col: 1}, Msg: "m"}, "<input>:1:1: m"},
		{diag.Error{Pos: diag.Pos{File: "c.yaml"}, Key: "sched.count", Msg: "c.yaml: sched.count: too big"}, "c.yaml: sched.count: too big"},
		{diag.Error{Msg: "bad override"}, "bad override"},
	} {
		assert.Equal(t, c.want, c.e.Error())
	}
	assert.True(t, (&diag.Error{Msg: "unsupported: textures"}).Unsupported())
	assert.False(t, (&diag.Error{Msg: "undefined label"}).Unsupported())
}

func TestErrorList(t *testing.T) {
	var l diag.ErrorList
	assert.NoError(t, l.Err())
	l.Add(diag.Pos{File: "b.ptx", Line: 1, Col: 1}, "third %d", 3)
	l.Add(diag.Pos{File: "a.ptx", Line: 9, Col: 2}, "second")
	l.Add(diag.Pos{File: "a.ptx", Line: 9, Col: 1}, "first")
	err := l.Err()
	assert.EqualError(t, err, "a.ptx:9:1: first\na.ptx:9:2: second\nb.ptx:1:1: third 3")
	var one *diag.Error
	assert.True(t, errors.As(err, &one))
	assert.Equal(t, "first", one.Msg)
	assert.Equal(t, "no errors", diag.ErrorList{}.Error())
	assert.Equal(t, "x:1:1: only", diag.ErrorList{{Pos: diag.Pos{File: "x", Line: 1, Col: 1}, Msg: "only"}}.Error())
}
