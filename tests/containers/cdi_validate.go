// The CDI reference library's view of a folder of CDI specs, for the
// container tests: every spec is read and validated as container runtimes
// do (the spec's version, kind, device names, container edits, and the CDI
// JSON schema), then the devices named on the command line are injected into
// an OCI spec whose process has PATH=/usr/bin.
//
// Usage: cdi_validate FOLDER [VENDOR/CLASS=DEVICE...]
// Prints {"devices": [...], "env": [...], "mounts": [...]} as JSON; each
// invalid spec is a line "invalid: FILE: REASON" on stderr and exit status 1.
package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/container-orchestrated-devices/container-device-interface/pkg/cdi"
	"github.com/container-orchestrated-devices/container-device-interface/pkg/cdi/validate"
	"github.com/container-orchestrated-devices/container-device-interface/schema"
	oci "github.com/opencontainers/runtime-spec/specs-go"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: cdi_validate FOLDER [DEVICE...]")
		os.Exit(2)
	}
	cdi.SetSpecValidator(validate.WithSchema(schema.BuiltinSchema()))
	cache, err := cdi.NewCache(cdi.WithSpecDirs(os.Args[1]), cdi.WithAutoRefresh(false))
	status := 0
	if err != nil {
		fmt.Fprintln(os.Stderr, "invalid:", err)
		status = 1
	}
	for path, errs := range cache.GetErrors() {
		for _, e := range errs {
			fmt.Fprintf(os.Stderr, "invalid: %s: %v\n", path, e)
			status = 1
		}
	}
	out := map[string]interface{}{"devices": cache.ListDevices()}
	if len(os.Args) > 2 {
		spec := &oci.Spec{Process: &oci.Process{Env: []string{"PATH=/usr/bin"}}, Linux: &oci.Linux{}}
		if _, err := cache.InjectDevices(spec, os.Args[2:]...); err != nil {
			fmt.Fprintln(os.Stderr, "inject:", err)
			status = 1
		}
		out["env"] = spec.Process.Env
		out["mounts"] = spec.Mounts
	}
	json.NewEncoder(os.Stdout).Encode(out)
	os.Exit(status)
}
