"""Facts extracted from Rust sources: imports, definitions, constants, environment reads."""

from __future__ import annotations

import textwrap

from hypothesis import given, settings
from hypothesis import strategies as st

from anchors.facts import MAX_SOURCE_BYTES, FileFacts, ImportFact, NotRead, ValueFact
from anchors.fingerprint import CodeSource, InMemoryFactsCache
from anchors.languages import extract_facts
from anchors.pyfacts import body_hash
from anchors.rustfacts import extract_rust
from anchors.spec import parse_anchor
from anchors.verdicts import Verdict
from anchors.verify import check_anchor
from tests.conftest import GitRepo


def facts(source: str) -> FileFacts:
    return extract_rust(textwrap.dedent(source).encode())


def imports(source: str) -> list[tuple[str, tuple[str, ...], str]]:
    return [(i.module, i.names, i.within) for i in facts(source).imports]


def qualnames(source: str) -> list[str]:
    return [d.qualname for d in facts(source).definitions]


# A real-looking Rust file: a small tokio service with a cache, its config and its tests.
SERVICE = b"""\
//! The cache service: a tokio task serving lookups from redis.
use std::collections::HashMap;
use std::env;
use std::sync::Arc;

use redis::{aio::ConnectionManager, AsyncCommands, Client as RedisClient};
use serde::{Deserialize, Serialize};
use tokio::sync::Mutex;

pub const DEFAULT_PORT: u16 = 6380;
const CACHE_URL_VAR: &str = "CACHE_URL";
static VERSION: &str = env!("CARGO_PKG_VERSION");

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Config {
    pub url: String,
    pub port: u16,
}

impl Config {
    pub fn from_env() -> Self {
        let url = env::var(CACHE_URL_VAR).unwrap_or_else(|_| "redis://127.0.0.1".into());
        let port = std::env::var("CACHE_PORT")
            .ok()
            .and_then(|p| p.parse().ok())
            .unwrap_or(DEFAULT_PORT);
        Config { url, port }
    }
}

pub struct Cache<K> {
    inner: Arc<Mutex<HashMap<K, String>>>,
}

impl<K: std::hash::Hash + Eq> Cache<K> {
    pub fn new() -> Self {
        Cache { inner: Arc::new(Mutex::new(HashMap::new())) }
    }

    pub async fn get(&self, key: &K) -> Option<String> {
        self.inner.lock().await.get(key).cloned()
    }
}

pub trait Store {
    fn fetch(&self, key: &str) -> Option<String>;
    fn name(&self) -> &'static str {
        "store"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn reads_default_port() {
        assert_eq!(Config::from_env().port, DEFAULT_PORT);
    }
}
"""


def test_a_real_service_yields_its_imports_definitions_constants_and_environment() -> None:
    found = extract_rust(SERVICE)
    assert found.parsed and found.not_read is None and found.language == "rust"
    assert [(i.module, i.names, i.within) for i in found.imports] == [
        ("std::collections", ("HashMap",), ""),
        ("std", ("env",), ""),
        ("std::sync", ("Arc",), ""),
        ("redis::aio", ("ConnectionManager",), ""),
        ("redis", ("AsyncCommands", "Client"), ""),
        ("serde", ("Deserialize", "Serialize"), ""),
        ("tokio::sync", ("Mutex",), ""),
        # Paths used without a ``use`` of their own: the module ``env`` (``env::var``),
        # ``std::hash::Hash`` in a bound, the ``#[tokio::test]`` attribute.
        ("env", ("var",), "Config.from_env"),
        ("std", ("hash",), "Cache"),
        ("super", ("*",), "tests"),
        ("tokio", ("test",), "tests"),
    ]
    assert [d.qualname for d in found.definitions] == [
        "DEFAULT_PORT", "CACHE_URL_VAR", "VERSION", "Config", "Config.url", "Config.port",
        "Config.from_env", "Cache", "Cache.inner", "Cache.new", "Cache.get", "Store",
        "Store.fetch", "Store.name", "tests", "tests.reads_default_port",
    ]  # fmt: skip
    assert found.constants == (
        ValueFact("DEFAULT_PORT", "6380", 10),
        ValueFact("CACHE_URL_VAR", '"CACHE_URL"', 11),
        ValueFact("VERSION", None, 12),
        ValueFact("Cache.default.inner", None, 37),  # what ``new`` gives it: computed
    )
    assert found.env_reads == ("CARGO_PKG_VERSION", "CACHE_URL", "CACHE_PORT")
    assert "redis" in found.mentions


def test_a_use_path_imports_its_last_segment_from_the_path_before_it() -> None:
    assert imports("use tokio::sync::Mutex;\nuse crate::db::Pool;\n") == [
        ("tokio::sync", ("Mutex",), ""),
        ("crate::db", ("Pool",), ""),
    ]


def test_a_single_segment_use_and_extern_crate_import_the_crate_whole() -> None:
    assert imports("use serde;\nuse serde_json as json;\nextern crate libc;\n") == [
        ("serde", (), ""),
        ("serde_json", (), ""),
        ("libc", (), ""),
    ]


def test_a_group_imports_each_name_renames_keep_the_original_and_self_counts() -> None:
    assert imports("use a::b::{C, D as E, self};\n") == [("a::b", ("C", "D", "self"), "")]


def test_glob_imports_name_a_star() -> None:
    assert imports("use a::b::*;\nuse super::*;\nuse a::{c::*, D};\n") == [
        ("a::b", ("*",), ""),
        ("super", ("*",), ""),
        ("a::c", ("*",), ""),
        ("a", ("D",), ""),
    ]


def test_nested_groups_are_flattened_one_import_per_path() -> None:
    assert imports("use std::{io::{self, Read, Write}, fs, collections::HashMap};\n") == [
        ("std::io", ("self", "Read", "Write"), ""),
        ("std", ("fs",), ""),
        ("std::collections", ("HashMap",), ""),
    ]


def test_relative_and_absolute_paths_and_pub_use_stay_as_written() -> None:
    assert imports(
        """\
        pub use self::config::Settings;
        pub(crate) use super::error::{Error, Result};
        use crate::db;
        use ::std::fmt;
        use {x, y::z};
        """
    ) == [
        ("self::config", ("Settings",), ""),
        ("super::error", ("Error", "Result"), ""),
        ("crate", ("db",), ""),
        ("::std", ("fmt",), ""),
        ("x", (), ""),
        ("y", ("z",), ""),
    ]


def test_use_inside_a_function_or_module_is_within_it() -> None:
    found = facts(
        """\
        mod net {
            use std::net::TcpStream;
        }
        fn main() {
            use std::io::Write;
            let x = 1;
        }
        """
    )
    assert [(i.module, i.within, i.line) for i in found.imports] == [
        ("std::net", "net", 2),
        ("std::io", "main", 5),
    ]
    assert found.imports[0] == ImportFact("std::net", ("TcpStream",), "net", 2)


def test_every_kind_of_item_is_a_definition() -> None:
    assert qualnames(
        """\
        pub fn run() {}
        async fn serve() {}
        pub const fn size() -> usize { 8 }
        struct Point { x: i32, y: i32 }
        struct Meters(f64);
        enum State { On, Off }
        union Bits { i: u32, f: f32 }
        type Result<T> = std::result::Result<T, Error>;
        const LIMIT: usize = 10;
        static mut COUNTER: u32 = 0;
        macro_rules! square { ($x:expr) => { $x * $x }; }
        extern "C" { fn abs(x: i32) -> i32; }
        mod decl;
        """
    ) == [
        "run", "serve", "size", "Point", "Point.x", "Point.y", "Meters", "State", "State.On",
        "State.Off", "Bits", "Bits.i", "Bits.f", "Result", "LIMIT", "COUNTER", "square", "abs",
    ]  # fmt: skip


def test_trait_methods_required_and_provided_and_its_items_are_qualified_by_the_trait() -> None:
    assert qualnames(
        """\
        pub trait Repo {
            type Item;
            const PAGE: usize = 20;
            fn find(&self, id: u64) -> Option<Self::Item>;
            fn count(&self) -> usize { 0 }
        }
        """
    ) == ["Repo", "Repo.Item", "Repo.PAGE", "Repo.find", "Repo.count"]


def test_methods_of_inherent_and_trait_impls_are_qualified_by_the_type_without_generics() -> None:
    assert qualnames(
        """\
        impl<T> Stack<T> {
            pub fn push(&mut self, v: T) {}
            const CAP: usize = 16;
        }
        impl fmt::Display for crate::model::User {
            fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { Ok(()) }
        }
        impl<'a, T: Clone> From<&'a [T]> for Vec<T> { fn from(s: &'a [T]) -> Self { todo!() } }
        impl dyn Any + Send { fn is_ok(&self) -> bool { true } }
        unsafe impl Send for Handle {}
        """
    ) == ["Stack.push", "Stack.CAP", "User.fmt", "Vec.from", "Any.is_ok"]


def test_inline_modules_qualify_their_items_and_test_modules_count() -> None:
    assert qualnames(
        """\
        mod outer {
            pub mod inner {
                pub struct Deep;
                impl Deep { pub fn go(&self) {} }
            }
        }
        #[cfg(test)]
        mod tests {
            #[test]
            fn it_works() {}
        }
        """
    ) == [
        "outer", "outer.inner", "outer.inner.Deep", "outer.inner.Deep.go", "tests",
        "tests.it_works",
    ]  # fmt: skip


def test_items_nested_in_a_function_body_are_qualified_by_the_function() -> None:
    assert qualnames(
        """\
        fn main() {
            fn helper() {}
            struct Local;
            let x = 1;
        }
        """
    ) == ["main", "main.helper", "main.Local"]


def test_definitions_carry_their_line_and_the_hash_of_their_text_and_attributes() -> None:
    source = b"#[inline]\npub fn double(x: u32) -> u32 {\n    x * 2\n}\n"
    (definition,) = extract_rust(source).definitions
    assert definition.line == 2 and definition.bases is None
    assert definition.body_hash == body_hash(source)
    changed = extract_rust(source.replace(b"#[inline]", b"#[inline(always)]")).definitions[0]
    assert changed.body_hash != definition.body_hash


def test_const_and_static_values_are_their_literal_text_or_none_when_computed() -> None:
    found = facts(
        """\
        const MAX_CONNS: u32 = 50;
        pub static APP_NAME: &str = "billing";
        const RATIO: f64 = 0.75;
        const OFFSET: i64 = -1;
        const ENABLED: bool = true;
        const SEP: char = ',';
        const BIG: u64 = 1_000_000u64;
        const RAW: &str = r"C:\\path";
        const TIMEOUT: Duration = Duration::from_secs(5);
        const DOUBLE: u32 = MAX_CONNS * 2;
        impl Pool { const SIZE: usize = 8; }
        mod limits { pub const PAGE: usize = 25; }
        """
    )
    assert [(c.name, c.text) for c in found.constants] == [
        ("MAX_CONNS", "50"),
        ("APP_NAME", '"billing"'),
        ("RATIO", "0.75"),
        ("OFFSET", "-1"),
        ("ENABLED", "true"),
        ("SEP", "','"),
        ("BIG", "1_000_000u64"),
        ("RAW", 'r"C:\\path"'),
        ("TIMEOUT", None),
        ("DOUBLE", None),
        ("Pool.SIZE", "8"),
        ("limits.PAGE", "25"),
    ]
    assert found.constants[1].line == 2


def test_a_const_inside_a_function_is_not_a_constant_value() -> None:
    assert facts("fn f() {\n    const LOCAL: u8 = 1;\n    struct S;\n}\n").constants == ()


def test_std_env_var_forms_are_environment_reads() -> None:
    found = facts(
        """\
        use std::env;
        fn main() {
            let a = std::env::var("DATABASE_URL").unwrap();
            let b = env::var("LOG_LEVEL");
            let c = env::var_os("HOME");
            let d = std::env::var_os(r"RAW_NAME");
            let e = ::std::env::var("ROOTED");
        }
        """
    )
    assert found.env_reads == ("DATABASE_URL", "LOG_LEVEL", "HOME", "RAW_NAME", "ROOTED")


def test_compile_time_env_macros_are_environment_reads() -> None:
    found = facts(
        """\
        const VERSION: &str = env!("CARGO_PKG_VERSION");
        fn build() -> Option<&'static str> { option_env!("BUILD_ID") }
        fn msg() -> &'static str { env!("GIT_HASH", "set GIT_HASH when building") }
        """
    )
    assert found.env_reads == ("CARGO_PKG_VERSION", "BUILD_ID", "GIT_HASH")


def test_environment_reads_inside_other_macros_arguments_are_found() -> None:
    found = facts(
        """\
        fn main() {
            println!("{}", env::var("IN_PRINTLN").unwrap());
            assert_eq!(std::env::var("IN_ASSERT").ok(), None);
            let v = vec![env!("IN_VEC")];
        }
        """
    )
    assert found.env_reads == ("IN_PRINTLN", "IN_ASSERT", "IN_VEC")


def test_a_bare_var_counts_only_when_imported_from_std_env() -> None:
    imported = facts('use std::env::{var, var_os};\nfn f() { var("BARE"); var_os("BARE_OS"); }\n')
    assert imported.env_reads == ("BARE", "BARE_OS")
    assert facts('use std::env;\nfn f() { var("NOT_ENV"); }\n').env_reads == ()


def test_names_held_by_string_constants_are_read_from_module_level_or_a_function() -> None:
    found = facts(
        """\
        const KEY: &str = "API_KEY";
        fn workers() -> usize {
            const ENV_WORKER_THREADS: &str = "TOKIO_WORKER_THREADS";
            std::env::var(ENV_WORKER_THREADS).ok().and_then(|s| s.parse().ok()).unwrap_or(4)
        }
        fn key() -> String { std::env::var(KEY).unwrap() }
        """
    )
    assert found.env_reads == ("TOKIO_WORKER_THREADS", "API_KEY")


def test_a_default_given_right_after_the_read_is_its_environment_default() -> None:
    found = facts(
        """\
        fn config() {
            let url = env::var("REDIS_URL").unwrap_or_else(|_| "redis://127.0.0.1".into());
            let port = std::env::var("PORT").unwrap_or("8080".to_string());
            let mode = env::var("MODE").unwrap_or(String::from("dev"));
            let host = env::var("HOST").unwrap_or(default_host());
            let build = option_env!("BUILD").unwrap_or("local");
            let key = env::var("KEY").expect("KEY must be set");
        }
        """
    )
    assert found.env_defaults == (
        ValueFact("REDIS_URL", '"redis://127.0.0.1"', 2),
        ValueFact("PORT", '"8080"', 3),
        ValueFact("MODE", '"dev"', 4),
        ValueFact("HOST", None, 5),
        ValueFact("BUILD", '"local"', 6),
    )
    assert "KEY" in found.env_reads


def test_look_alikes_are_not_environment_reads() -> None:
    found = facts(
        """\
        // std::env::var("IN_COMMENT")
        /* env!("IN_BLOCK_COMMENT") */
        fn f(config: &Config) {
            let a = config.var("METHOD");
            let b = other::var("OTHER_MODULE");
            let c = "env::var(\\"IN_STRING\\")";
            let d = std::env::var(name);
            let e = std::env::vars();
        }
        """
    )
    assert found.env_reads == ()


def test_comments_are_not_mentions_but_code_and_strings_are() -> None:
    found = facts(
        """\
        // We used to cache in redis here.
        const DSN: &str = "postgres://localhost/app"; // was mongodb
        /* kafka was tried,
           /// and dropped */
        fn f<'a>(x: &'a str) -> &'a str { x } // celery
        const BROKER: &str = "nats://x // rabbitmq";
        """
    )
    assert not {"redis", "mongodb", "kafka", "celery"} & set(found.mentions)
    assert {"postgres", "nats", "rabbitmq"} <= set(found.mentions)


def test_struct_fields_and_enum_variants_are_qualified_by_their_type() -> None:
    found = facts(
        """\
        pub struct Builder<'a> {
            filter: env_filter::Builder,
            /// How to write.
            #[allow(dead_code)]
            pub(crate) writer: Writer<'a>,
        }
        pub struct Pair(u8, u8);
        pub enum WriteStyle {
            Auto,
            #[default]
            Always = 1,
            Never(bool),
            Custom { code: u8 },
        }
        """
    )
    assert [(d.qualname, d.line) for d in found.definitions] == [
        ("Builder", 1), ("Builder.filter", 2), ("Builder.writer", 5), ("Pair", 7),
        ("WriteStyle", 8), ("WriteStyle.Auto", 9), ("WriteStyle.Always", 11),
        ("WriteStyle.Never", 12), ("WriteStyle.Custom", 13),
    ]  # fmt: skip
    # A member's attributes are part of its text, as an item's are.
    writer = found.definitions[2]
    assert writer.body_hash == body_hash(b"#[allow(dead_code)]\n    pub(crate) writer: Writer<'a>")


def test_a_crate_used_by_a_full_path_without_a_use_is_an_import() -> None:
    found = facts(
        """\
        use std::io::Write;
        use crate::fmt::Formatter;

        pub(crate) fn write(buf: &mut Formatter, t: SystemTime) -> io::Result<()> {
            let stream = anstream::AutoStream::new(std::io::stderr(), choice);
            log::info!("at {}", humantime::format_rfc3339(t));
            let v: serde_json::Value = serde_json::from_str("{}")?;
            let m = i32::MAX + u8::from(1) as i32 + Vec::<u8>::new().len() as i32;
            let s = "tokio::spawn is not called";
            // regex::Regex is not used either
            self::helper(); super::up(); crate::down(); a::b::c();
            Ok(())
        }
        """
    )
    assert [(i.module, i.names, i.within, i.line) for i in found.imports] == [
        ("std::io", ("Write",), "", 1),
        ("crate::fmt", ("Formatter",), "", 2),
        ("io", ("Result",), "write", 4),
        ("anstream", ("AutoStream",), "write", 5),
        ("std", ("io",), "write", 5),
        ("log", ("info",), "write", 6),
        ("humantime", ("format_rfc3339",), "write", 6),
        ("serde_json", ("Value",), "write", 7),
        ("serde_json", ("from_str",), "write", 7),
        ("a", ("b",), "write", 11),
    ]
    # a path in place binds no name in the file; a ``use`` does
    assert [i.module for i in found.imports if not i.qualified] == ["std::io", "crate::fmt"]


def test_a_pub_use_alias_is_an_item_of_its_module() -> None:
    found = facts(
        """        pub use anstyle as style;
        pub use self::writer::{Target as Destination, WriteStyle};
        use std::io::Write as _;
        use std::fmt::Display as Shown;
        mod inner {
            pub use crate::fmt::Formatter as F;
        }
        """
    )
    assert [d.qualname for d in found.definitions] == ["style", "Destination", "inner", "inner.F"]
    assert found.definitions[0].line == 1


def test_a_path_import_names_the_method_or_module_it_sits_in() -> None:
    found = facts(
        """\
        mod fmt {
            impl Display for Level {
                fn fmt(&self) -> String { humantime::format(self) }
            }
        }
        """
    )
    assert found.imports == (
        ImportFact("humantime", ("format",), "fmt.Level.fmt", 3, qualified=True),
    )
    assert "fmt.Level.fmt" in [d.qualname for d in found.definitions]


def test_a_constant_declaring_an_environment_variable_name_is_a_read_of_it() -> None:
    found = facts(
        """\
        /// The default name for the environment variable to read filters from.
        pub const DEFAULT_FILTER_ENV: &str = "RUST_LOG";
        pub const DEFAULT_WRITE_STYLE_ENV: &str = "RUST_LOG_STYLE";
        const LOG_VAR: &'static str = "APP_LOG";
        const ENV_PREFIX: &str = "app_";
        const DEFAULT_LEVEL: &str = "INFO";
        """
    )
    # The read itself goes through a builder's field (``Env::default().filter(..)``).
    assert found.env_reads == ("RUST_LOG", "RUST_LOG_STYLE", "APP_LOG")


def test_syntax_errors_keep_the_facts_of_what_parsed_and_the_words_of_the_file() -> None:
    found = facts(
        """\
        use std::io;

        fn good() {}

        fn broken( -> {
            %%% not rust
        }

        struct After;
        """
    )
    assert not found.parsed and found.not_read is NotRead.SYNTAX_ERRORS
    assert [i.module for i in found.imports] == ["std"]
    assert "good" in [d.qualname for d in found.definitions]
    assert found.words is not None and "broken" in found.words and "After" in found.words


def test_bytes_that_are_not_utf8_and_do_not_parse_are_not_utf8() -> None:
    found = extract_rust(b"fn caf\xe9( {\n")
    assert not found.parsed and found.not_read is NotRead.NOT_UTF8
    assert found.language == "rust"


def test_a_file_over_the_size_limit_is_not_parsed_but_keeps_its_words() -> None:
    source = b"fn f() {}\n" + b"// " + b"x" * MAX_SOURCE_BYTES
    found = extract_facts(source, "rust")
    assert not found.parsed and found.not_read is NotRead.TOO_LARGE
    assert found.size == len(source) and found.definitions == ()
    assert found.words is not None and "x" * MAX_SOURCE_BYTES in found.words


def test_a_clean_file_keeps_no_word_set() -> None:
    found = extract_rust(b"fn f() {}\n")
    assert found.parsed and found.words is None


def test_deeply_nested_modules_do_not_exhaust_the_stack() -> None:
    depth = 3000
    found = extract_rust(b"mod m {" * depth + b"fn f() {}" + b"}" * depth)
    assert found.definitions[0].qualname == "m"
    assert len(found.definitions) < depth


def test_rust_files_dispatch_here_from_the_languages_module() -> None:
    found = extract_facts(SERVICE, "rust")
    assert found.language == "rust"
    assert "Cache.get" in [d.qualname for d in found.definitions]


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400))
def test_arbitrary_bytes_never_raise(data: bytes) -> None:
    found = extract_rust(data)
    assert found.language == "rust"
    assert found.parsed or found.not_read is not None


_TOKENS = [
    "use", "a", "::", "{", "}", "(", ")", "<", ">", ",", ";", "*", "self", "super", "crate",
    "as", "fn", "impl", "for", "trait", "mod", "struct", "enum", "const", "static", ":",
    "&str", "=", '"X"', "5", "-", "env", "!", "var", "std", "option_env", "#[cfg(test)]",
    "macro_rules!", "dyn", "+", "'a", "extern", "\n",
]  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_TOKENS), max_size=60).map(" ".join))
def test_token_salad_never_raises(text: str) -> None:
    found = extract_rust(text.encode())
    assert all(d.qualname for d in found.definitions)
    assert all(i.module for i in found.imports)


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=len(SERVICE)), st.binary(max_size=8))
def test_truncated_or_spliced_real_files_never_raise(cut: int, junk: bytes) -> None:
    extract_rust(SERVICE[:cut])
    extract_rust(SERVICE[:cut] + junk + SERVICE[cut:])


LOGGER = """\
use std::{borrow::Cow, io};

/// The default name for the environment variable to read filters from.
pub const DEFAULT_FILTER_ENV: &str = "RUST_LOG";

pub struct Builder {
    filter: env_filter::Builder,
    built: bool,
}

pub enum WriteStyle {
    Auto,
    Always,
    Never,
}
"""
TIMESTAMPS = """\
pub(crate) fn stamp(t: std::time::SystemTime) -> String {
    humantime::format_rfc3339_seconds(t).to_string()
}
"""


def test_fields_variants_path_imports_and_env_constants_answer_anchors(
    git_repo: GitRepo,
) -> None:
    git_repo.commit(
        {
            "Cargo.toml": '[package]\nname = "env_logger"\nversion = "0.11.0"\n',
            "src/logger.rs": LOGGER,
            "src/fmt/humantime.rs": TIMESTAMPS,
        }
    )
    with CodeSource(git_repo.root, InMemoryFactsCache()) as source:
        fp = source.fingerprint()
    verdicts = {
        text: check_anchor(parse_anchor(text), None, fp).verdict
        for text in (
            "symbol:src/logger.rs::Builder.filter",
            "symbol:src/logger.rs::WriteStyle.Always",
            "symbol:src/logger.rs::WriteStyle.Sometimes",
            "import:humantime@src/fmt/humantime.rs",
            "import:humantime@src/logger.rs",
            "env:RUST_LOG",
            "env:RUST_LOG_STYLE",
        )
    }
    assert verdicts == {
        "symbol:src/logger.rs::Builder.filter": Verdict.HOLDS,
        "symbol:src/logger.rs::WriteStyle.Always": Verdict.HOLDS,
        "symbol:src/logger.rs::WriteStyle.Sometimes": Verdict.BROKEN,
        "import:humantime@src/fmt/humantime.rs": Verdict.HOLDS,
        "import:humantime@src/logger.rs": Verdict.BROKEN,
        "env:RUST_LOG": Verdict.HOLDS,
        "env:RUST_LOG_STYLE": Verdict.BROKEN,
    }
