// Command funclen enforces the project rule "no non-test function over 80
// lines" (CI runs it as `go run ./internal/tools/funclen .`): long
// functions hide their steps, and a named step is read, tested and
// reviewed on its own.
//
// It parses every .go file under the given folders except tests
// (*_test.go) and the testdata, vendor and hidden folders (.git), and
// lists each function or method longer than the limit as
// "file:line name N lines", counting from the line of `func` to the line of
// the closing brace (the doc comment is not counted). A function literal
// counts in the function that contains it and is not reported on its own:
// what must stay short is the named unit. It exits 1 when it listed any,
// 2 when a file cannot be read or parsed.
package main

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// MaxLines is the longest a non-test function may be.
const MaxLines = 80

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run checks the folders in args (default ".") and returns the exit status.
// -max N sets another limit (to see which functions come next).
func run(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("funclen", flag.ContinueOnError)
	fl.SetOutput(stderr)
	max := fl.Int("max", MaxLines, "the longest a function may be, in lines")
	if err := fl.Parse(args); err != nil {
		return 2
	}
	args = fl.Args()
	if len(args) == 0 {
		args = []string{"."}
	}
	var long []finding
	for _, root := range args {
		f, err := check(root, *max)
		if err != nil {
			fmt.Fprintln(stderr, "funclen:", err)
			return 2
		}
		long = append(long, f...)
	}
	if len(long) == 0 {
		return 0
	}
	for _, f := range long {
		fmt.Fprintln(stdout, f)
	}
	fmt.Fprintf(stderr, "funclen: %d function(s) over %d lines: split them into named steps\n", len(long), *max)
	return 1
}

// finding is one function over the limit.
type finding struct {
	file  string
	line  int
	name  string
	lines int
}

func (f finding) String() string {
	return fmt.Sprintf("%s:%d %s %d lines", f.file, f.line, f.name, f.lines)
}

// check lists the functions over max lines in the non-test Go files under
// root, in file order (paths as walked from root) and line order.
func check(root string, max int) ([]finding, error) {
	var out []finding
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && skipDir(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := checkFile(path, max)
		out = append(out, f...)
		return err
	})
	return out, err
}

// skipDir says which folders hold no code of the project's own: test
// inputs, vendored code and hidden folders (.git, editor state).
func skipDir(name string) bool {
	return name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")
}

// checkFile lists the functions over max lines in one file.
func checkFile(path string, max int) ([]finding, error) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var out []finding
	for _, decl := range file.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if !ok || fn.Body == nil {
			continue // literals in var blocks belong to no named function
		}
		start := fset.Position(fn.Type.Func).Line
		n := fset.Position(fn.Body.Rbrace).Line - start + 1
		if n > max {
			out = append(out, finding{file: path, line: start, name: funcName(fn), lines: n})
		}
	}
	return out, nil
}

// funcName is the function's name, or for a method "Recv.Name" /
// "(*Recv).Name" as Go writes method expressions.
func funcName(fn *ast.FuncDecl) string {
	if fn.Recv == nil || len(fn.Recv.List) == 0 {
		return fn.Name.Name
	}
	t := fn.Recv.List[0].Type
	star := false
	if s, ok := t.(*ast.StarExpr); ok {
		star, t = true, s.X
	}
	switch g := t.(type) { // generic receivers: T[P] or T[P, Q]
	case *ast.IndexExpr:
		t = g.X
	case *ast.IndexListExpr:
		t = g.X
	}
	recv := "?"
	if id, ok := t.(*ast.Ident); ok {
		recv = id.Name
	}
	if star {
		return "(*" + recv + ")." + fn.Name.Name
	}
	return recv + "." + fn.Name.Name
}
