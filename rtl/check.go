package rtl

import (
	"fmt"
	"reflect"
)

// CheckState reports an error when a unit's State type is not a plain
// comparable value (it holds a pointer, slice, map, channel, function or
// interface, directly or in a nested struct or array).
func CheckState(s any) error {
	return plainValue(reflect.TypeOf(s), "State")
}

func plainValue(t reflect.Type, path string) error {
	if t == nil {
		return fmt.Errorf("%s: nil type", path)
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Chan, reflect.Func, reflect.Interface, reflect.UnsafePointer:
		return fmt.Errorf("%s is a %s; register state must be a plain value", path, t.Kind())
	case reflect.Array:
		return plainValue(t.Elem(), path+"[]")
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if err := plainValue(f.Type, path+"."+f.Name); err != nil {
				return err
			}
		}
	}
	return nil
}
