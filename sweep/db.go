package sweep

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"path/filepath"
	"time"

	_ "modernc.org/sqlite" // the pure-Go SQLite driver, "sqlite"
)

// DBName is the results database's file name in the output directory.
const DBName = "results.db"

// Result is one point's outcome, a row of the database.
type Result struct {
	Hash     string            `json:"hash"`
	Workload string            `json:"workload"`
	Values   map[string]string `json:"axes"`
	Args     []string          `json:"args"`
	Status   string            `json:"status"` // the report's status, or bad_input / error
	ExitCode int               `json:"exit_code"`
	Error    string            `json:"error,omitempty"`
	Report   string            `json:"report,omitempty"` // the JSON run report, "" when there is none
	WallMS   int64             `json:"wall_ms"`
	Finished time.Time         `json:"finished"`
}

// DB is the results database of one output directory.
type DB struct{ db *sql.DB }

const schemaSQL = `CREATE TABLE IF NOT EXISTS points (
	hash      TEXT PRIMARY KEY,
	workload  TEXT NOT NULL,
	axes      TEXT NOT NULL,
	args      TEXT NOT NULL,
	status    TEXT NOT NULL,
	exit_code INTEGER NOT NULL,
	error     TEXT NOT NULL,
	report    TEXT NOT NULL,
	wall_ms   INTEGER NOT NULL,
	finished  TEXT NOT NULL
)`

// OpenDB opens (creating when needed) DIR/results.db.
func OpenDB(dir string) (*DB, error) {
	path := filepath.Join(dir, DBName)
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(schemaSQL); err != nil {
		db.Close()
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return &DB{db: db}, nil
}

// Close closes the database.
func (d *DB) Close() error { return d.db.Close() }

// Put inserts or replaces one result.
func (d *DB) Put(r Result) error {
	axes, _ := json.Marshal(r.Values)
	args, _ := json.Marshal(r.Args)
	_, err := d.db.Exec(`INSERT OR REPLACE INTO points
		(hash, workload, axes, args, status, exit_code, error, report, wall_ms, finished)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		r.Hash, r.Workload, string(axes), string(args), r.Status, r.ExitCode, r.Error, r.Report, r.WallMS,
		r.Finished.UTC().Format(time.RFC3339Nano))
	return err
}

// Delete removes the rows of the given hashes.
func (d *DB) Delete(hashes ...string) error {
	for _, h := range hashes {
		if _, err := d.db.Exec(`DELETE FROM points WHERE hash = ?`, h); err != nil {
			return err
		}
	}
	return nil
}

// Hashes returns the set of hashes stored.
func (d *DB) Hashes() (map[string]bool, error) {
	return queryMap(d, `SELECT hash FROM points`, func(rows *sql.Rows) (string, bool, error) {
		var h string
		err := rows.Scan(&h)
		return h, true, err
	})
}

// All returns every stored result by hash.
func (d *DB) All() (map[string]Result, error) {
	return queryMap(d, `SELECT hash, workload, axes, args, status, exit_code, error, report, wall_ms, finished FROM points`, func(rows *sql.Rows) (string, Result, error) {
		var r Result
		var axes, args, fin string
		if err := rows.Scan(&r.Hash, &r.Workload, &axes, &args, &r.Status, &r.ExitCode, &r.Error, &r.Report, &r.WallMS, &fin); err != nil {
			return "", r, err
		}
		if err := json.Unmarshal([]byte(axes), &r.Values); err != nil {
			return "", r, fmt.Errorf("row %s: axes: %v", r.Hash, err)
		}
		if err := json.Unmarshal([]byte(args), &r.Args); err != nil {
			return "", r, fmt.Errorf("row %s: args: %v", r.Hash, err)
		}
		r.Finished, _ = time.Parse(time.RFC3339Nano, fin)
		return r.Hash, r, nil
	})
}

// queryMap runs the query q and maps each row's key to its value, as row
// reads them.
func queryMap[V any](d *DB, q string, row func(*sql.Rows) (string, V, error)) (map[string]V, error) {
	rows, err := d.db.Query(q)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]V{}
	for rows.Next() {
		k, v, err := row(rows)
		if err != nil {
			return nil, err
		}
		out[k] = v
	}
	return out, rows.Err()
}
