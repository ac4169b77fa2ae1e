package pipeline

// Accessors for the SM RTL's lockstep (package cosim, docs/sm-rtl.md):
// what the Verilated SM's bench loads besides the image.

// ParamBytes returns a copy of the kernel's parameter buffer as the launch
// built it (bound buffers' addresses and scalar arguments in place).
func (sm *SM) ParamBytes() []byte { return append([]byte(nil), sm.param...) }

// ClusterShape returns the launch's cluster shape (%cluster_nctaid) and
// whether the cluster is explicit (%is_explicit_cluster).
func (sm *SM) ClusterShape() ([3]uint32, bool) { return sm.cluster, sm.explicitCluster }
