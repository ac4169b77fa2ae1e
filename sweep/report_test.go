package sweep

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// chromium finds Debian's chromium; missing is a failure in CI (scripts/deps.sh
// installs it) and a skip elsewhere.
func chromium(t *testing.T) string {
	t.Helper()
	for _, p := range []string{"/usr/bin/chromium", "/usr/bin/chromium-browser"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if p, err := exec.LookPath("chromium"); err == nil {
		return p
	}
	if os.Getenv("CI") != "" {
		t.Fatal("chromium is not installed (scripts/deps.sh installs it)")
	}
	t.Skip("chromium missing: apt-get install chromium")
	return ""
}

// TestReportInChromium renders report.html in headless Chromium and checks
// that every image loaded.
func TestReportInChromium(t *testing.T) {
	exe := chromium(t)
	s, out := loadEngineSpec(t)
	if _, err := RunLocal(context.Background(), s, out, fakeRun(nil), Options{Workers: 2}); err != nil {
		t.Fatal(err)
	}
	if _, err := WriteOutputs(s, out); err != nil {
		t.Fatal(err)
	}
	// The report must stand alone: load it from a directory without plots/.
	page := filepath.Join(t.TempDir(), "report.html")
	data, err := os.ReadFile(filepath.Join(out, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(page, data, 0o644); err != nil {
		t.Fatal(err)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	actx, acancel := chromedp.NewExecAllocator(ctx, opts...)
	defer acancel()
	bctx, bcancel := chromedp.NewContext(actx)
	defer bcancel()
	type loaded struct {
		Total  int `json:"total"`
		Loaded int `json:"loaded"`
	}
	err = chromedp.Do(bctx,
		chromedp.Navigate("file://"+page),
		chromedp.WaitReady("body"),
	)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(bctx, chromedp.Poll[bool](`Array.from(document.images).every(i => i.complete)`, chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		t.Fatal(err)
	}
	res, err := chromedp.Run(bctx, chromedp.Evaluate[loaded](`({total: document.images.length, loaded: Array.from(document.images).filter(i => i.complete && i.naturalWidth > 0).length})`))
	if err != nil {
		t.Fatal(err)
	}
	if res.Total != 6 || res.Loaded != res.Total {
		t.Errorf("%d of %d images loaded, want 6 of 6", res.Loaded, res.Total)
	}
}
