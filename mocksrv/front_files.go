package mocksrv

import "github.com/dssim-go/dssim-go/servertypes"

// SystemXML returns the ds-system.xml text year's ds-server writes at AUTH
// (ds-server.md §1.7; its version on line 2): types in sorted order, attributes in its order, the
// float32 rate printed with %.2f of its exact binary value. The writer is
// servertypes' (the client reads what it writes); the rates go in exactly,
// so float32 → float64 → float32 gives the stored value back.
func SystemXML(cfg *Config, year Year) []byte {
	types := make([]servertypes.Type, len(cfg.Types))
	for i, t := range cfg.Types {
		types[i] = servertypes.Type{Name: t.Name, Limit: t.Limit, BootupTime: t.BootupTime,
			HourlyRate: float64(t.HourlyRate), Cores: t.Cores, Memory: t.Memory, Disk: t.Disk}
	}
	sys, err := servertypes.New("ds-system.xml", types)
	if err != nil {
		// Cannot happen for a loaded config (unique names, positive sizes).
		panic("mocksrv: " + err.Error())
	}
	return sys.XML(year.Version())
}
