// The real implementation of the go profile: net/url.Parse, as net/http
// reads a URL with it.
//
// The oracle protocol (README.md): a first line naming the runtime, then,
// for each line of standard input (a URL as a JSON string), one line of
// JSON with the components, or the error returned.
//
// The components, as a Go program reads them: Scheme; User's Username()
// and, when set, ":" and Password() (decoded); Hostname() and Port();
// Path (decoded), or Opaque for a URL whose scheme is not followed by
// "/"; RawQuery, null when the URL has no "?" (RawQuery "" and no
// ForceQuery); Fragment (decoded). Go's strings are "" where there is
// none. An error is a *url.Error; its class is its Err's type
// (url.EscapeError, url.InvalidHostError) or, for the errors made with
// errors.New or fmt.Errorf, their message without the quoted text.
//
// With -bench FILE ROUNDS, it parses every line of FILE ROUNDS times, after
// as many rounds untimed, and writes the number of URLs parsed per second (no
// JSON, no output per URL).
//
// The test builds it with `go build` (the standard library only).
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"
)

func class(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	switch err.(type) {
	case url.EscapeError:
		return "url.EscapeError"
	case url.InvalidHostError:
		return "url.InvalidHostError"
	}
	msg := err.Error()
	if strings.HasPrefix(msg, "invalid port ") && strings.HasSuffix(msg, " after host") {
		return "invalid port after host"
	}
	return msg
}

func answer(s string) map[string]any {
	u, err := url.Parse(s)
	if err != nil {
		return map[string]any{"error": class(err), "message": err.Error()}
	}
	var userinfo any
	if u.User != nil {
		info := u.User.Username()
		if password, set := u.User.Password(); set {
			info += ":" + password
		}
		userinfo = info
	}
	path := u.Path
	if u.Opaque != "" {
		path = u.Opaque
	}
	var query any
	if u.RawQuery != "" || u.ForceQuery {
		query = u.RawQuery
	}
	return map[string]any{
		"scheme":   u.Scheme,
		"userinfo": userinfo,
		"host":     u.Hostname(),
		"port":     u.Port(),
		"path":     path,
		"query":    query,
		"fragment": u.Fragment,
	}
}

func bench(file string, rounds int) {
	text, err := os.ReadFile(file)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	lines := strings.Split(strings.TrimSuffix(string(text), "\n"), "\n")
	hosts := 0
	round := func() {
		for _, line := range lines {
			if u, err := url.Parse(line); err == nil {
				hosts += len(u.Hostname())
			}
		}
	}
	for r := 0; r < rounds; r++ {
		round() // untimed
	}
	cpu0 := cpuSeconds()
	start := time.Now()
	for r := 0; r < rounds; r++ {
		round()
	}
	elapsed := time.Since(start).Seconds()
	cpu := cpuSeconds() - cpu0
	n := float64(len(lines) * rounds)
	fmt.Printf("%s net/url.Parse: %.0f URLs in %.3f s (%.3f s of CPU): %.0f URLs/s, %.0f per CPU second (%d host bytes)\n",
		runtime.Version(), n, elapsed, cpu, n/elapsed, n/cpu, hosts)
}

// cpuSeconds is the CPU time of the process (every thread: the garbage
// collector's too).
func cpuSeconds() float64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

func main() {
	if len(os.Args) == 4 && os.Args[1] == "-bench" {
		rounds, _ := strconv.Atoi(os.Args[3])
		bench(os.Args[2], rounds)
		return
	}
	out := bufio.NewWriter(os.Stdout)
	enc := json.NewEncoder(out)
	enc.Encode(map[string]string{"runtime": runtime.Version(), "library": "net/url"})
	out.Flush()
	in := bufio.NewReader(os.Stdin)
	for {
		line, err := in.ReadString('\n')
		if len(line) > 0 {
			var s string
			if json.Unmarshal([]byte(line), &s) != nil {
				fmt.Fprintf(os.Stderr, "not a JSON string: %q\n", line)
				os.Exit(2)
			}
			enc.Encode(answer(s))
		}
		if err != nil {
			break
		}
	}
	out.Flush()
}
