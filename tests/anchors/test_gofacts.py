"""Facts extracted from Go sources: imports, definitions, constants, environment reads."""

from __future__ import annotations

import textwrap

from hypothesis import given, settings
from hypothesis import strategies as st

from anchors.facts import MAX_SOURCE_BYTES, FileFacts, ImportFact, NotRead, ValueFact
from anchors.fingerprint import CodeSource, InMemoryFactsCache
from anchors.gofacts import extract_go
from anchors.languages import extract_facts
from anchors.pyfacts import body_hash
from anchors.spec import parse_anchor
from anchors.verdicts import Verdict
from anchors.verify import check_anchor
from tests.conftest import GitRepo


def facts(source: str) -> FileFacts:
    return extract_go(textwrap.dedent(source).encode())


def qualnames(source: str) -> list[str]:
    return [d.qualname for d in facts(source).definitions]


# A real-looking Go file: a small gin service with a store, its config and its environment.
SERVICE = b"""\
// Package server runs the HTTP API.
package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	goos "os"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"
	r "github.com/go-redis/redis/v8"
	_ "github.com/lib/pq"
)

// DefaultPort is used when PORT is not set.
const DefaultPort = 8080

const (
	envRedis       = "REDIS_URL"
	readTimeout    = 5 * time.Second
	maxPage    int = 100
)

var ErrNotFound = errors.New("not found")

type Store struct {
	client *r.Client
	ttl    time.Duration
}

type Getter interface {
	Get(ctx context.Context, key string) (string, error)
}

func NewStore() (*Store, error) {
	opts, err := r.ParseURL(goos.Getenv(envRedis))
	if err != nil {
		return nil, fmt.Errorf("redis: %w", err)
	}
	return &Store{client: r.NewClient(opts), ttl: time.Hour}, nil
}

func (s *Store) Get(ctx context.Context, key string) (string, error) {
	v, err := s.client.Get(ctx, key).Result()
	if errors.Is(err, r.Nil) {
		return "", ErrNotFound
	}
	return v, err
}

func Run() error {
	port := DefaultPort
	if p, ok := goos.LookupEnv("PORT"); ok {
		port, _ = strconv.Atoi(p)
	}
	engine := gin.Default()
	engine.GET("/healthz", func(c *gin.Context) { c.String(http.StatusOK, "ok") })
	srv := &http.Server{Addr: fmt.Sprintf(":%d", port), Handler: engine, ReadTimeout: readTimeout}
	return srv.ListenAndServe()
}
"""


def test_a_real_service_yields_its_imports_definitions_constants_and_environment() -> None:
    found = extract_go(SERVICE)
    assert found.parsed and found.not_read is None and found.language == "go"
    assert [(i.module, i.names) for i in found.imports] == [
        ("context", ()),
        ("errors", ()),
        ("fmt", ()),
        ("net/http", ()),
        ("os", ("goos",)),
        ("strconv", ()),
        ("time", ()),
        ("github.com/gin-gonic/gin", ()),
        ("github.com/go-redis/redis/v8", ("r",)),
        ("github.com/lib/pq", ("_",)),
    ]
    assert [d.qualname for d in found.definitions] == [
        "DefaultPort", "envRedis", "readTimeout", "maxPage", "ErrNotFound", "Store",
        "Store.client", "Store.ttl", "Getter", "Getter.Get", "NewStore", "Store.Get", "Run",
    ]  # fmt: skip
    assert found.constants == (
        ValueFact("DefaultPort", "8080", 19),
        ValueFact("envRedis", '"REDIS_URL"', 22),
        ValueFact("readTimeout", "5 * time.Second", 23),  # a duration: compared in seconds
        ValueFact("maxPage", "100", 24),
        ValueFact("ErrNotFound", '"not found"', 27),
        ValueFact("Store.default.ttl", "time.Hour", 43),  # what ``NewStore`` gives it
    )
    assert found.env_reads == ("REDIS_URL", "PORT")
    assert "redis" in found.mentions


def test_single_and_grouped_imports_keep_their_paths_as_written_and_their_lines() -> None:
    found = facts(
        """\
        package main

        import "fmt"
        import (
        \t"github.com/gin-gonic/gin"
        \t"gopkg.in/yaml.v3"
        )
        """
    )
    assert found.imports == (
        ImportFact("fmt", (), "", 3),
        ImportFact("github.com/gin-gonic/gin", (), "", 5),
        ImportFact("gopkg.in/yaml.v3", (), "", 6),
    )


def test_aliased_blank_and_dot_imports_name_their_alias() -> None:
    found = facts(
        """\
        package main

        import (
        \tr "github.com/go-redis/redis/v8"
        \t_ "github.com/mattn/go-sqlite3"
        \t. "github.com/onsi/gomega"
        )
        import pb "example.com/api/v1"
        """
    )
    assert [(i.module, i.names) for i in found.imports] == [
        ("github.com/go-redis/redis/v8", ("r",)),
        ("github.com/mattn/go-sqlite3", ("_",)),
        ("github.com/onsi/gomega", (".",)),
        ("example.com/api/v1", ("pb",)),
    ]


def test_a_raw_string_import_path_counts() -> None:
    assert [i.module for i in facts("package main\nimport `net/http`\n").imports] == ["net/http"]


def test_functions_and_generic_functions_are_definitions() -> None:
    assert qualnames(
        """\
        package main

        func main() {}
        func Map[T, U any](xs []T, f func(T) U) []U { return nil }
        """
    ) == ["main", "Map"]


def test_methods_are_qualified_by_their_receiver_type_pointer_or_value() -> None:
    assert qualnames(
        """\
        package store

        func (s *Store) Get(key string) string { return "" }
        func (s Store) Len() int { return 0 }
        func (*Store) reset() {}
        """
    ) == ["Store.Get", "Store.Len", "Store.reset"]


def test_generic_receivers_lose_their_type_parameters() -> None:
    assert qualnames(
        """\
        package list

        func (l *List[T]) Push(v T) {}
        func (m Map[K, V]) Keys() []K { return nil }
        """
    ) == ["List.Push", "Map.Keys"]


def test_struct_interface_alias_and_generic_type_declarations_single_or_grouped() -> None:
    assert qualnames(
        """\
        package model

        type User struct {
        \tName string
        \tAge  int
        }
        type (
        \tID    = int64
        \tPair[K comparable, V any] struct{ k K; v V }
        \tNames []string
        )
        """
    ) == ["User", "User.Name", "User.Age", "ID", "Pair", "Pair.k", "Pair.v", "Names"]


def test_interface_methods_are_qualified_by_the_interface_and_embeddings_are_not() -> None:
    assert qualnames(
        """\
        package io2

        type ReadCloser interface {
        \tio.Reader
        \t~int | ~string
        \tClose() error
        \tRead(p []byte) (int, error)
        }
        """
    ) == ["ReadCloser", "ReadCloser.Close", "ReadCloser.Read"]


def test_struct_fields_are_definitions_qualified_by_the_struct_embedded_ones_by_type() -> None:
    found = facts(
        """\
        package mux

        type Router struct {
        \tNotFoundHandler http.Handler
        \tmiddlewares     []middleware
        \tread, write     int
        \t_               struct{}
        \t*sync.Mutex
        \trouteConf
        \tList[int]
        \tlog.Logger `json:"-"`
        }
        """
    )
    assert [(d.qualname, d.line) for d in found.definitions] == [
        ("Router", 3), ("Router.NotFoundHandler", 4), ("Router.middlewares", 5),
        ("Router.read", 6), ("Router.write", 6), ("Router.Mutex", 8), ("Router.routeConf", 9),
        ("Router.List", 10), ("Router.Logger", 11),
    ]  # fmt: skip


def test_package_level_constants_and_variables_are_definitions_blank_names_are_not() -> None:
    assert qualnames(
        """\
        package p

        const Version = "1.2.3"
        var (
        \tdebug     bool
        \tminX, maxX = 1, 9
        \t_          = fmt.Sprintf
        )
        """
    ) == ["Version", "debug", "minX", "maxX"]


def test_definitions_carry_their_line_and_the_hash_of_their_text() -> None:
    source = b'package p\n\nfunc Hello() string {\n\treturn "hi"\n}\n'
    (definition,) = extract_go(source).definitions
    assert definition.line == 3 and definition.bases is None
    assert definition.body_hash == body_hash(b'func Hello() string {\n\treturn "hi"\n}')
    changed = extract_go(source.replace(b'"hi"', b'"hello"')).definitions[0]
    assert changed.body_hash != definition.body_hash


def test_constant_values_are_their_literal_text_single_typed_and_grouped() -> None:
    found = facts(
        """\
        package p

        const MaxConns = 50
        const Timeout int64 = 30
        const Greeting = "hello"
        const Raw = `C:\\path`
        const (
        \tRatio       = 0.75
        \tOffset      = -1
        \tEnabled     = true
        \tSep    rune = ','
        \tA, B        = 1, 2
        )
        """
    )
    assert [(c.name, c.text) for c in found.constants] == [
        ("MaxConns", "50"),
        ("Timeout", "30"),
        ("Greeting", '"hello"'),
        ("Raw", "`C:\\path`"),
        ("Ratio", "0.75"),
        ("Offset", "-1"),
        ("Enabled", "true"),
        ("Sep", "','"),
        ("A", "1"),
        ("B", "2"),
    ]
    assert [c.line for c in found.constants][:5] == [3, 4, 5, 6, 8]


def test_iota_and_repetition_give_derived_numbers_computed_constants_no_text() -> None:
    found = facts(
        """\
        package p

        const (
        \tLow = iota
        \tMid
        \t_
        \tHigh
        \tTimeout = 5 * time.Second
        \tName = prefix + "x"
        )

        const (
        \tRead Op = 1 << iota
        \tWrite
        \tKB = 1 << (10 * (iota + 1))
        \tMB
        \tFirst = Kind(iota + 1)
        \tMode = 0755
        \tSame
        \tLabel = "x"
        \tAgain
        \tHuge = 1 << (iota * 1000)
        \tSized = len("abc") + iota
        )
        """
    )
    assert [(c.name, c.text, c.derived) for c in found.constants] == [
        ("Low", "0", True), ("Mid", "1", True), ("High", "3", True),
        ("Timeout", "5 * time.Second", False), ("Name", None, False),
        ("Read", "1", True), ("Write", "2", True), ("KB", str(1 << 30), True),
        ("MB", str(1 << 40), True), ("First", "5", True), ("Mode", "0755", False),
        ("Same", "493", True), ("Label", '"x"', False), ("Again", '"x"', True),
        ("Huge", None, True), ("Sized", None, True),
    ]  # fmt: skip


def test_package_variables_state_their_literal_values_or_none_when_computed() -> None:
    found = facts(
        """\
        package p

        var Port = 8080
        var (
        \tname       = "x"
        \tdebug      bool
        \tstart      = time.Now()
        \tlo, hi     = -1, 1.5
        )
        """
    )
    assert found.constants == (
        ValueFact("Port", "8080", 3), ValueFact("name", '"x"', 5), ValueFact("start", None, 7),
        ValueFact("lo", "-1", 8), ValueFact("hi", "1.5", 8),
    )  # fmt: skip


def test_an_error_variable_states_its_message_as_its_value() -> None:
    found = facts(
        """\
        package mux

        var (
        \tErrMethodMismatch = errors.New("method is not allowed")
        \tErrNotFound       = fmt.Errorf(`no matching route was found`)
        \tErrWrapped        = fmt.Errorf("wrap: %w", ErrNotFound)
        \tErrComputed       = errors.New(msg)
        \tErrOther          = pkgerrors.New("x")
        )
        """
    )
    assert found.constants == (
        ValueFact("ErrMethodMismatch", '"method is not allowed"', 4),
        ValueFact("ErrNotFound", "`no matching route was found`", 5),
        ValueFact("ErrWrapped", None, 6),
        ValueFact("ErrComputed", None, 7),
        ValueFact("ErrOther", None, 8),
    )


def test_getenv_and_lookupenv_anywhere_in_the_file_are_environment_reads() -> None:
    found = facts(
        """\
        package main

        import "os"

        var home = os.Getenv("HOME")

        func main() {
        \tif v, ok := os.LookupEnv("DEBUG"); ok {
        \t\tfmt.Println(v, os.Getenv(`RAW_NAME`))
        \t}
        \tgo func() { _ = os.Getenv("IN_CLOSURE") }()
        }
        """
    )
    assert found.env_reads == ("HOME", "DEBUG", "RAW_NAME", "IN_CLOSURE")


def test_environment_reads_through_an_alias_or_a_dot_import_of_os() -> None:
    aliased = facts(
        'package p\n\nimport xos "os"\n\nvar a = xos.Getenv("ALIASED")\nvar b = os.Getenv("X")\n'
    )
    assert aliased.env_reads == ("ALIASED",)  # ``os`` is not imported under its own name
    dotted = facts('package p\n\nimport . "os"\n\nvar a = Getenv("DOTTED")\n')
    assert dotted.env_reads == ("DOTTED",)
    syscall = facts('package p\n\nimport "syscall"\n\nvar a, _ = syscall.Getenv("SYS")\n')
    assert syscall.env_reads == ("SYS",)


def test_getenv_of_another_package_in_a_string_or_a_comment_is_not_a_read() -> None:
    found = facts(
        """\
        package p

        import (
        \t"os"
        \t"example.com/config"
        )

        // os.Getenv("IN_COMMENT") is how it used to work
        var a = config.Getenv("OTHER_PACKAGE")
        var b = "os.Getenv(\\"IN_STRING\\")"
        var c = os.Getenv(dynamicName())
        """
    )
    assert found.env_reads == ()


def test_an_environment_name_held_by_a_string_constant_is_read() -> None:
    found = facts(
        """\
        package p

        import "os"

        const envMode = "APP_MODE"

        func mode() string { return os.Getenv(envMode) }

        func token() string {
        \tconst key = "API_TOKEN"
        \treturn os.Getenv(key)
        }
        """
    )
    assert found.env_reads == ("APP_MODE", "API_TOKEN")


def test_a_constant_declaring_an_environment_variable_name_is_a_read_of_it() -> None:
    found = facts(
        """\
        package config

        const (
        \tFilterEnv      = "APP_FILTER"
        \tLOG_STYLE_VAR  = "APP_LOG_STYLE"
        \tenvPrefix      = "app_"
        \tDefaultLevel   = "INFO"
        )
        """
    )
    # The reads happen elsewhere (a struct field, another file): the constant names them.
    assert found.env_reads == ("APP_FILTER", "APP_LOG_STYLE")


def test_comments_are_not_mentions_but_code_and_strings_are() -> None:
    found = facts(
        """\
        package p

        // We used to cache in redis here.
        const dsn = "postgres://localhost/app" // was mongodb
        /* kafka was tried
           and dropped */
        var broker = `nats://x // rabbitmq`
        """
    )
    assert not {"redis", "mongodb", "kafka"} & set(found.mentions)
    assert {"postgres", "nats", "rabbitmq"} <= set(found.mentions)


def test_syntax_errors_keep_the_facts_of_what_parsed_and_the_words_of_the_file() -> None:
    found = facts(
        """\
        package p

        import "os"

        func Good() {}

        func Broken( {
        \t%%% not go
        }

        type After struct{}
        """
    )
    assert not found.parsed and found.not_read is NotRead.SYNTAX_ERRORS
    assert [i.module for i in found.imports] == ["os"]
    assert "Good" in [d.qualname for d in found.definitions]
    assert found.words is not None and "Broken" in found.words and "After" in found.words


def test_bytes_that_are_not_utf8_and_do_not_parse_are_not_utf8() -> None:
    found = extract_go(b"package p\n\nfunc Caf\xe9() {\n")
    assert not found.parsed and found.not_read is NotRead.NOT_UTF8
    assert found.language == "go"


def test_a_file_over_the_size_limit_is_not_parsed_but_keeps_its_words() -> None:
    source = b"package p\n\nfunc F() {}\n" + b"// " + b"x" * MAX_SOURCE_BYTES
    found = extract_facts(source, "go")
    assert not found.parsed and found.not_read is NotRead.TOO_LARGE
    assert found.size == len(source) and found.definitions == ()
    assert found.words is not None and "x" * MAX_SOURCE_BYTES in found.words


def test_a_clean_file_keeps_no_word_set() -> None:
    found = extract_go(b"package p\n\nfunc F() {}\n")
    assert found.parsed and found.words is None


def test_go_files_dispatch_here_from_the_languages_module() -> None:
    found = extract_facts(SERVICE, "go")
    assert found.language == "go"
    assert "Store.Get" in [d.qualname for d in found.definitions]


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400))
def test_arbitrary_bytes_never_raise(data: bytes) -> None:
    found = extract_go(data)
    assert found.language == "go"
    assert found.parsed or found.not_read is not None


_TOKENS = [
    "package", "p", "import", "(", ")", "{", "}", "[", "]", "func", "type", "struct",
    "interface", "const", "var", "=", ",", ";", "\n", "*", "os", ".", "Getenv", "LookupEnv",
    '"X"', "`Y`", "iota", "5", "-", "T", "any", "_", '"os"', "r", "xos",
]  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_TOKENS), max_size=60).map(" ".join))
def test_token_salad_never_raises(text: str) -> None:
    found = extract_go(text.encode())
    assert all(d.qualname for d in found.definitions)


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=len(SERVICE)), st.binary(max_size=8))
def test_truncated_or_spliced_real_files_never_raise(cut: int, junk: bytes) -> None:
    extract_go(SERVICE[:cut])
    extract_go(SERVICE[:cut] + junk + SERVICE[cut:])


MUX = """\
package mux

import (
\t"errors"
\t"net/http"
)

const debugEnv = "MUX_DEBUG"

var ErrNotFound = errors.New("no matching route was found")

type Router struct {
\tNotFoundHandler http.Handler
\tmiddlewares     []middleware
}
"""


def test_fields_error_messages_and_declared_env_names_answer_anchors(git_repo: GitRepo) -> None:
    git_repo.commit({"mux.go": MUX, "go.mod": "module example.com/mux\n\ngo 1.21\n"})
    with CodeSource(git_repo.root, InMemoryFactsCache()) as source:
        fp = source.fingerprint()
    verdicts = {
        text: check_anchor(parse_anchor(text), None, fp).verdict
        for text in (
            "symbol:mux.go::Router.middlewares",
            "symbol:mux.go::Router.handlers",
            'symbol:mux.go::ErrNotFound="no matching route was found"',
            'symbol:mux.go::ErrNotFound="route not found"',
            "env:MUX_DEBUG",
        )
    }
    assert verdicts == {
        "symbol:mux.go::Router.middlewares": Verdict.HOLDS,
        "symbol:mux.go::Router.handlers": Verdict.BROKEN,
        'symbol:mux.go::ErrNotFound="no matching route was found"': Verdict.HOLDS,
        'symbol:mux.go::ErrNotFound="route not found"': Verdict.BROKEN,
        "env:MUX_DEBUG": Verdict.HOLDS,
    }


def test_a_value_given_another_constant_of_the_file_takes_its_literal() -> None:
    """``EnableSorting = defaultSorting``: the value the code gives it, one level deep; a
    computed constant stays computed; a package's name (``pkg.Value``) is the value as
    written."""
    found = facts(
        """\
        package p

        const defaultSorting = true
        const computed = 3 * width

        var EnableSorting = defaultSorting
        var Other = computed
        var Imported = pkg.Value
        """
    )
    assert [(c.name, c.text) for c in found.constants] == [
        ("defaultSorting", "true"), ("computed", None), ("EnableSorting", "true"),
        ("Other", None), ("Imported", "pkg.Value"),
    ]  # fmt: skip
