package pipeline

// Accessors for the SM RTL's lockstep (package cosim, docs/sm-rtl.md):
// what the Verilated SM's bench loads besides the image.

// ParamBytes returns a copy of the kernel's parameter buffer as the launch
// built it (bound buffers' addresses and scalar arguments in place).
func (sm *SM) ParamBytes() []byte { return append([]byte(nil), sm.param...) }
