package main

import (
	"crypto/rand"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/smsim/smsim/sweep"
)

// cliEnv makes the test binary act as smsim: a sweep runs each point as
// `EXE run ...` with EXE = os.Executable(), this test binary, and the Slurm
// test's job tasks run it as `EXE sweep run-shard DIR TASK`.
const cliEnv = "SMSIM_TEST_AS_CLI"

func TestMain(m *testing.M) {
	if os.Getenv(cliEnv) == "1" {
		os.Exit(run(os.Args, os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

func TestSweepBadSpecs(t *testing.T) {
	dir := t.TempDir()
	kernel, _ := examplePTX(t, "div_ifelse")
	wl := "workloads:\n  - kernel: " + kernel + "\n"
	tests := []struct {
		name, spec, want string
	}{
		{"unknown config key", wl + "axes:\n  sched.cuont: [1, 2]\n", `:4:3: axes: unknown config key "sched.cuont"`},
		{"bad range", wl + "axes:\n  lat.global: {from: 800, to: 100, step: 100}\n", `:4:31: axes: lat.global: bad range: to 100 is below from 800`},
		{"unknown metric", wl + "metrics: [cycles, ipcc]\n", `:3:19: metrics: unknown metric "ipcc"`},
		{"missing workload file", "workloads:\n  - kernel: nope.ptx\n", `:2:13: workloads[0].kernel: no such file: ` + filepath.Join(dir, "nope.ptx")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			spec := filepath.Join(dir, "spec.yaml")
			if err := os.WriteFile(spec, []byte(tc.spec), 0o644); err != nil {
				t.Fatal(err)
			}
			code, _, stderr := smsim(t, "sweep", spec, "-o", filepath.Join(dir, "out"))
			if code != 2 {
				t.Errorf("exit %d, want 2; stderr %s", code, stderr)
			}
			if !strings.Contains(stderr, spec+tc.want) {
				t.Errorf("stderr %q lacks %q", stderr, spec+tc.want)
			}
		})
	}
}

var ranRE = regexp.MustCompile(`ran (\d+) points`)

func ranPoints(t *testing.T, stderr string) string {
	t.Helper()
	m := ranRE.FindStringSubmatch(stderr)
	if m == nil {
		t.Fatalf("no 'ran N points' in %q", stderr)
	}
	return m[1]
}

// TestSweepStudy runs the shipped study: a second run does nothing; three
// deleted rows are run again, exactly those, with identical metrics.
func TestSweepStudy(t *testing.T) {
	t.Setenv(cliEnv, "1")
	spec := filepath.Join("..", "..", "studies", "schedulers.yaml")
	out := t.TempDir()
	code, _, stderr := smsim(t, "sweep", spec, "-o", out, "--workers", "2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if n := ranPoints(t, stderr); n != "72" {
		t.Fatalf("first run ran %s points, want 72", n)
	}
	for _, f := range []string{"results.csv", "results.json", "report.html", "plots/speedup.png", "plots/speedup.svg", "plots/ipc.png", "plots/stalls.png", "plots/cycles-bench_intloop.png"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Error(err)
		}
	}
	code, _, stderr = smsim(t, "sweep", spec, "-o", out)
	if code != 0 || ranPoints(t, stderr) != "0" {
		t.Fatalf("second run: exit %d: %s", code, stderr)
	}
	s, err := sweep.Load(spec)
	if err != nil {
		t.Fatal(err)
	}
	before, err := sweep.LoadTable(s, out)
	if err != nil {
		t.Fatal(err)
	}
	db, err := sweep.OpenDB(out)
	if err != nil {
		t.Fatal(err)
	}
	del := []int{3, 40, 71}
	for _, i := range del {
		if err := db.Delete(before.Results[i].Hash); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	code, _, stderr = smsim(t, "sweep", spec, "-o", out)
	if code != 0 || ranPoints(t, stderr) != "3" {
		t.Fatalf("after deleting 3 rows: exit %d: %s", code, stderr)
	}
	after, err := sweep.LoadTable(s, out)
	if err != nil {
		t.Fatal(err)
	}
	for i := range before.Results {
		b, a := before.Results[i], after.Results[i]
		if a.Report != b.Report || a.Status != "completed" {
			t.Errorf("point %d (%s %v): the report differs between two runs", i, a.Workload, a.Values)
		}
		ran := a.Finished.After(b.Finished)
		if want := i == del[0] || i == del[1] || i == del[2]; ran != want {
			t.Errorf("point %d: ran again %v, want %v", i, ran, want)
		}
	}
}

// slurmCluster is a single-node Slurm started by the test.
type slurmCluster struct {
	conf  string
	procs []*exec.Cmd
	logs  []*strings.Builder
	names []string
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// startSlurm starts munged, slurmctld and slurmd (as root) with a generated
// slurm.conf in a temporary directory, and stops them when the test ends.
func startSlurm(t *testing.T) *slurmCluster {
	t.Helper()
	var missing []string
	for _, b := range []string{"munged", "slurmctld", "slurmd", "sbatch", "squeue", "sinfo"} {
		if _, err := exec.LookPath(b); err != nil {
			if _, err := os.Stat("/usr/sbin/" + b); err != nil {
				missing = append(missing, b)
			}
		}
	}
	if os.Geteuid() != 0 {
		missing = append(missing, "root (the daemons run as root)")
	}
	if len(missing) > 0 {
		if os.Getenv("CI") != "" {
			t.Fatalf("the Slurm test needs %s (scripts/deps.sh installs slurm-wlm and munge)", strings.Join(missing, ", "))
		}
		t.Skipf("Slurm test skipped: missing %s (apt-get install slurm-wlm munge)", strings.Join(missing, ", "))
	}
	dir, err := os.MkdirTemp("", "slurm")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	// munged wants its socket's directories searchable by all, its key private.
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"munge", "run", "state", "spool"} {
		mode := os.FileMode(0o700)
		if d == "run" {
			mode = 0o755
		}
		if err := os.Mkdir(filepath.Join(dir, d), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(filepath.Join(dir, d), mode); err != nil { // past the umask
			t.Fatal(err)
		}
	}
	key := make([]byte, 1024)
	if _, err := rand.Read(key); err != nil {
		t.Fatal(err)
	}
	keyFile := filepath.Join(dir, "munge", "munge.key")
	if err := os.WriteFile(keyFile, key, 0o600); err != nil {
		t.Fatal(err)
	}
	host, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	host, _, _ = strings.Cut(host, ".")
	sock := filepath.Join(dir, "run", "munge.sock")
	c := &slurmCluster{conf: filepath.Join(dir, "slurm.conf")}
	conf := fmt.Sprintf(`ClusterName=smsimtest
SlurmctldHost=%[1]s(127.0.0.1)
SlurmctldPort=%[3]d
SlurmdPort=%[4]d
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=%[5]s
CredType=cred/munge
StateSaveLocation=%[2]s/state
SlurmdSpoolDir=%[2]s/spool
SlurmctldPidFile=%[2]s/slurmctld.pid
SlurmdPidFile=%[2]s/slurmd.pid
SlurmctldLogFile=%[2]s/slurmctld.log
SlurmdLogFile=%[2]s/slurmd.log
ProctrackType=proctrack/pgid
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MpiDefault=none
ReturnToService=2
NodeName=%[1]s NodeAddr=127.0.0.1 CPUs=%[6]d State=UNKNOWN
PartitionName=debug Nodes=%[1]s Default=YES MaxTime=INFINITE State=UP
`, host, dir, freePort(t), freePort(t), sock, runtime.NumCPU())
	if err := os.WriteFile(c.conf, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("SLURM_CONF", c.conf)
	t.Cleanup(c.stop)
	c.start(t, "munged", "-F", "--key-file="+keyFile, "--socket="+sock, "--pid-file="+dir+"/run/munged.pid",
		"--log-file="+dir+"/munge/log", "--seed-file="+dir+"/munge/seed")
	c.wait(t, 10*time.Second, "munged's socket", func() bool { _, err := os.Stat(sock); return err == nil })
	c.start(t, "slurmctld", "-D", "-i", "-f", c.conf)
	c.start(t, "slurmd", "-D", "-f", c.conf)
	c.wait(t, 30*time.Second, "the node to be idle", func() bool {
		out, err := exec.Command("sinfo", "-h", "-o", "%T").Output()
		return err == nil && strings.TrimSpace(string(out)) == "idle"
	})
	return c
}

func (c *slurmCluster) start(t *testing.T, name string, args ...string) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), "SLURM_CONF="+c.conf)
	var log strings.Builder
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	c.procs = append(c.procs, cmd)
	c.logs = append(c.logs, &log)
	c.names = append(c.names, name)
}

// stop ends the daemons this test started, last first.
func (c *slurmCluster) stop() {
	for i := len(c.procs) - 1; i >= 0; i-- {
		p := c.procs[i]
		_ = p.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { _ = p.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = p.Process.Kill()
			<-done
		}
	}
}

// wait polls ok; on time-out it fails with the daemons' output.
func (c *slurmCluster) wait(t *testing.T, limit time.Duration, what string, ok func() bool) {
	t.Helper()
	end := time.Now().Add(limit)
	for !ok() {
		if time.Now().After(end) {
			c.stop()
			var b strings.Builder
			for i, l := range c.logs {
				fmt.Fprintf(&b, "--- %s:\n%s\n", c.names[i], l.String())
			}
			t.Fatalf("timed out waiting for %s\n%s", what, b.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestSweepSlurm runs a sweep as a job array on a real single-node Slurm
// and checks that its results equal the local engine's.
func TestSweepSlurm(t *testing.T) {
	startSlurm(t)
	t.Setenv(cliEnv, "1")
	dir := t.TempDir()
	spec := filepath.Join(dir, "spec.yaml")
	text := `workloads:
  - kernel: ` + filepath.Join(examplesDir(t), "div_ifelse.ptx") + `
    args: [--grid, "2", --block, "64", --buf, "0=512", --buf, "1=256", --buf, "2=256"]
  - kernel: ` + filepath.Join(examplesDir(t), "loop_tripcount.ptx") + `
    args: [--grid, "2", --block, "64", --buf, "0=512", --buf, "1=512", --arg, "2=12345"]
axes:
  sched.count: [1, 2]
  sched.policy: [lrr, gto]
metrics: [cycles, ipc, warp_instructions, stalls.wait]
`
	if err := os.WriteFile(spec, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	slurmOut, localOut := filepath.Join(dir, "slurm"), filepath.Join(dir, "local")
	code, _, stderr := smsim(t, "sweep", spec, "-o", slurmOut, "--engine", "slurm", "--tasks", "3", "--partition", "debug", "--time", "5", "--wait")
	if code != 0 {
		t.Fatalf("slurm sweep: exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "8 points in 3 tasks") || !strings.Contains(stderr, "collected 8 results") {
		t.Errorf("stderr: %s", stderr)
	}
	code, out, stderr := smsim(t, "sweep", "status", slurmOut)
	if code != 0 || !strings.Contains(out, "8/8 points done, 0 failed") {
		t.Errorf("status: exit %d: %s%s", code, out, stderr)
	}
	code, _, stderr = smsim(t, "sweep", spec, "-o", localOut, "--workers", "2")
	if code != 0 {
		t.Fatalf("local sweep: exit %d: %s", code, stderr)
	}
	a, err := os.ReadFile(filepath.Join(slurmOut, "results.csv"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(localOut, "results.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if string(a) != string(b) || strings.Count(string(a), ",completed,") != 8 {
		t.Errorf("Slurm results differ from the local engine's:\n%s\nlocal:\n%s", a, b)
	}
}

func examplesDir(t *testing.T) string {
	t.Helper()
	d, err := filepath.Abs(filepath.Join("..", "..", "examples"))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// BenchmarkSweepWorkers runs bench/sweep/bench.yaml's 20 points with 1 and
// 2 workers (every iteration with --force); bench/sweep/run.sh compares the
// two through the binary.
func BenchmarkSweepWorkers(b *testing.B) {
	spec := filepath.Join("..", "..", "bench", "sweep", "bench.yaml")
	b.Setenv(cliEnv, "1")
	for _, w := range []string{"1", "2"} {
		b.Run("workers="+w, func(b *testing.B) {
			out := b.TempDir()
			for b.Loop() {
				var stdout, stderr strings.Builder
				if code := run([]string{"smsim", "sweep", spec, "-o", out, "--workers", w, "--force"}, strings.NewReader(""), &stdout, &stderr); code != 0 {
					b.Fatalf("exit %d: %s", code, stderr.String())
				}
			}
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/sweep")
		})
	}
}
