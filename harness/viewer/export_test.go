package viewer

import (
	"context"
	"testing"
)

// The browser kit for the external tests (package viewer_test, which may
// import harness: dsbench's own pages).
type Browser = browser

// NewBrowser starts headless Chromium (or skips, or fails under CI).
func NewBrowser(t testing.TB) *Browser { return newBrowser(t) }

// OpenFile loads a page file; no script error allowed.
func (b *browser) OpenFile(t testing.TB, path string) { b.openFile(t, path) }

// Eval evaluates js into out.
func (b *browser) Eval(t testing.TB, js string, out any) { b.eval(t, js, out) }

// NoErrors fails on any script error so far.
func (b *browser) NoErrors(t testing.TB) { b.noErrors(t) }

// Ctx is the browser's context, for chromedp actions.
func (b *browser) Ctx() context.Context { return b.ctx }
