package simconfig

import "github.com/dssim-go/dssim-go/mocksrv/model"

// The data model is package model, which does no I/O so that the engine
// can depend on it; the loader's results keep their names here.
type (
	// Config is a loaded configuration (model.Config).
	Config = model.Config
	// ServerType is a <server> element (model.ServerType, §2.3).
	ServerType = model.ServerType
	// JobType is a <job> element of <jobs> (model.JobType, §2.4).
	JobType = model.JobType
	// Workload is the <workload> element (model.Workload, §2.5).
	Workload = model.Workload
	// Job is one job (model.Job).
	Job = model.Job
	// FailureRecord is one failure trace record (model.FailureRecord, C.1).
	FailureRecord = model.FailureRecord
	// FailureEvent is one failure or recovery (model.FailureEvent, C.1).
	FailureEvent = model.FailureEvent
)
