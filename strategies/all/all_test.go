package all_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/dssim-go/dssim-go"

// TestAllImportsEveryStrategy: every package under strategies/ that calls
// strategies.Register outside its tests is imported by all.go. A package
// nothing imports never runs its init, so its strategies are missing from
// dsclient, dsbench and every sweep, and nothing else would say so.
func TestAllImportsEveryStrategy(t *testing.T) {
	if err := checkAll("..", "all.go"); err != nil {
		t.Error(err)
	}
	// The scan must see what all.go imports, or it would pass blind.
	regs, err := registering("..")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range imports(t, "all.go") {
		if _, ok := regs[p]; !ok {
			t.Errorf("all.go imports %s, but the scan found no strategies.Register call in it", p)
		}
	}
}

func imports(t *testing.T, file string) []string {
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ImportsOnly)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		out = append(out, p)
	}
	return out
}

// TestAllImportsCheckNamesTheMissing: with a line of all.go taken out, the
// check fails naming the package, where it registers and the file to add
// it to.
func TestAllImportsCheckNamesTheMissing(t *testing.T) {
	src, err := os.ReadFile("all.go")
	if err != nil {
		t.Fatal(err)
	}
	line := `	_ "` + module + `/strategies/sgme"`
	i := strings.Index(string(src), line)
	if i < 0 {
		t.Fatalf("all.go has no line %q", line)
	}
	cut := string(src[:i]) + string(src[i+len(line):])
	trimmed := filepath.Join(t.TempDir(), "all.go")
	if err := os.WriteFile(trimmed, []byte(cut), 0o644); err != nil {
		t.Fatal(err)
	}
	err = checkAll("..", trimmed)
	want := `strategies/sgme/sgme.go:` // the line may move; the rest may not
	if err == nil || !strings.Contains(err.Error(), "package "+module+"/strategies/sgme registers strategies (strategies.Register at "+want) ||
		!strings.Contains(err.Error(), "but strategies/all/all.go does not import it: add\n\t_ \""+module+"/strategies/sgme\"\nto its imports") {
		t.Errorf("all.go without sgme: %v", err)
	}
	if err != nil && strings.Contains(err.Error(), "baselines") {
		t.Errorf("names a package all.go does import: %v", err)
	}
}

// checkAll is nil when the file allGo imports every package under root
// (the strategies/ folder) that registers a strategy, or names each one
// that it does not.
func checkAll(root, allGo string) error {
	regs, err := registering(root)
	if err != nil {
		return err
	}
	f, err := parser.ParseFile(token.NewFileSet(), allGo, nil, parser.ImportsOnly)
	if err != nil {
		return err
	}
	imported := map[string]bool{}
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		imported[p] = true
	}
	var missing []string
	for _, pkg := range slices.Sorted(maps.Keys(regs)) {
		if !imported[pkg] {
			missing = append(missing, fmt.Sprintf("package %s registers strategies (strategies.Register at %s) but strategies/all/all.go does not import it: add\n\t_ %q\nto its imports",
				pkg, regs[pkg], pkg))
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("%s", strings.Join(missing, "\n"))
	}
	return nil
}

// registering maps the import path of every package below root that calls
// strategies.Register in a non-test file to the first such call
// ("strategies/sgme/sgme.go:44"). Package strategies itself (root) defines
// Register and is left out, as are testdata and hidden folders.
func registering(root string) (map[string]string, error) {
	out := map[string]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		dir := filepath.Dir(path)
		if dir == filepath.Clean(root) || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(root, dir)
		pkg := module + "/strategies/" + filepath.ToSlash(rel)
		if _, seen := out[pkg]; seen {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		if pos := registerCall(f); pos.IsValid() {
			relFile, _ := filepath.Rel(root, path)
			out[pkg] = fmt.Sprintf("strategies/%s:%d", filepath.ToSlash(relFile), fset.Position(pos).Line)
		}
		return nil
	})
	return out, err
}

// registerCall is the position of f's first call of strategies.Register
// (under whatever name f imports the package, or bare after a dot import),
// or token.NoPos.
func registerCall(f *ast.File) token.Pos {
	local := ""
	for _, imp := range f.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == module+"/strategies" {
			local = "strategies"
			if imp.Name != nil {
				local = imp.Name.Name
			}
		}
	}
	if local == "" || local == "_" {
		return token.NoPos
	}
	pos := token.NoPos
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || pos.IsValid() {
			return !pos.IsValid()
		}
		switch fun := call.Fun.(type) {
		case *ast.SelectorExpr:
			if x, ok := fun.X.(*ast.Ident); ok && x.Name == local && fun.Sel.Name == "Register" {
				pos = call.Pos()
			}
		case *ast.Ident:
			if local == "." && fun.Name == "Register" {
				pos = call.Pos()
			}
		}
		return true
	})
	return pos
}
