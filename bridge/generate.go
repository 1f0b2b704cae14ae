package bridge

// The action methods and their params types are written from the
// contract (internal/tool) by internal/clientgen, whose TestGeneratedIsCurrent
// (in the unit stage) fails when actions_gen.go is stale.
//go:generate go run ../internal/clientgen/cmd/clientgen
