"""Go names written by their import path: a member of a package of the repository's own
module (``-X github.com/x/y/src/defaults.defaultConfig=...``, the definition in that
folder) and an exported name of an imported package (``crypto/subtle.ConstantTimeCompare``,
the import of ``crypto/subtle``)."""

from __future__ import annotations

import re

from anchors.facts import Fingerprint
from anchors.infra_facts import infra_kind
from anchors.infra_values import InfraKind
from anchors.spec import Anchor, AnchorKind
from anchors.vocabulary import is_ordinary_word

__all__ = ["GO_STD_PACKAGES", "imported_package", "own_go_member", "words_joined"]

# Go's standard library packages, by import path ("net/http", "debug/elf"): a path under
# one of their first parts that is none of them ("debug/release/test") is words joined by
# "/", not a package
GO_STD_PACKAGES = frozenset({
    "archive/tar", "archive/zip", "bufio", "bytes", "cmp", "compress/bzip2",
    "compress/flate", "compress/gzip", "compress/lzw", "compress/zlib", "container/heap",
    "container/list", "container/ring", "context", "crypto", "crypto/aes", "crypto/cipher",
    "crypto/des", "crypto/dsa", "crypto/ecdh", "crypto/ecdsa", "crypto/ed25519",
    "crypto/elliptic", "crypto/hkdf", "crypto/hmac", "crypto/md5", "crypto/mlkem",
    "crypto/pbkdf2", "crypto/rand", "crypto/rc4", "crypto/rsa", "crypto/sha1",
    "crypto/sha256", "crypto/sha3", "crypto/sha512", "crypto/subtle", "crypto/tls",
    "crypto/x509", "crypto/x509/pkix", "database/sql", "database/sql/driver",
    "debug/buildinfo", "debug/dwarf", "debug/elf", "debug/gosym", "debug/macho", "debug/pe",
    "debug/plan9obj", "embed", "encoding", "encoding/ascii85", "encoding/asn1",
    "encoding/base32", "encoding/base64", "encoding/binary", "encoding/csv", "encoding/gob",
    "encoding/hex", "encoding/json", "encoding/pem", "encoding/xml", "errors", "expvar",
    "flag", "fmt", "go/ast", "go/build", "go/build/constraint", "go/constant", "go/doc",
    "go/doc/comment", "go/format", "go/importer", "go/parser", "go/printer", "go/scanner",
    "go/token", "go/types", "go/version", "hash", "hash/adler32", "hash/crc32",
    "hash/crc64", "hash/fnv", "hash/maphash", "html", "html/template", "image",
    "image/color", "image/color/palette", "image/draw", "image/gif", "image/jpeg",
    "image/png", "index/suffixarray", "io", "io/fs", "io/ioutil", "iter", "log", "log/slog",
    "log/syslog", "maps", "math", "math/big", "math/bits", "math/cmplx", "math/rand",
    "math/rand/v2", "mime", "mime/multipart", "mime/quotedprintable", "net", "net/http",
    "net/http/cgi", "net/http/cookiejar", "net/http/fcgi", "net/http/httptest",
    "net/http/httptrace", "net/http/httputil", "net/http/pprof", "net/mail", "net/netip",
    "net/rpc", "net/rpc/jsonrpc", "net/smtp", "net/textproto", "net/url", "os", "os/exec",
    "os/signal", "os/user", "path", "path/filepath", "plugin", "reflect", "regexp",
    "regexp/syntax", "runtime", "runtime/cgo", "runtime/coverage", "runtime/debug",
    "runtime/metrics", "runtime/pprof", "runtime/race", "runtime/trace", "slices", "sort",
    "strconv", "strings", "structs", "sync", "sync/atomic", "syscall", "syscall/js",
    "testing", "testing/fstest", "testing/iotest", "testing/quick", "testing/slogtest",
    "text/scanner", "text/tabwriter", "text/template", "text/template/parse", "time",
    "time/tzdata", "unicode", "unicode/utf16", "unicode/utf8", "unique", "unsafe", "weak",
})  # fmt: skip
_GO_NAME = re.compile(r"[A-Za-z_]\w*")
_GO_MEMBER = re.compile(r"(?P<path>[\w.\-]+(?:/[\w.\-]+)*/[a-z][\w\-]*)\.(?P<member>[A-Z]\w*)")


def own_go_member(text: str, fp: Fingerprint) -> Anchor | None:
    """A member of a package of the repository's own Go module named by its import path:
    the definition, in that folder; None otherwise."""
    for path, values in fp.infra.items():
        if infra_kind(path) is InfraKind.YAML_SETTINGS:
            continue  # (an application's settings name no package or module)
        for v in values or ():
            if v.key != "module" or not v.text or not text.startswith(f"{v.text}/"):
                continue
            folder, _, last = text[len(v.text) + 1 :].rpartition("/")
            package, dot, member = last.partition(".")
            place = f"{folder}/{package}" if folder else package
            if dot and _GO_NAME.fullmatch(member) and fp.has_directory(place):
                return Anchor(AnchorKind.SYMBOL, member, scope=place)
    return None


def imported_package(text: str, fp: Fingerprint) -> str:
    """The import path an exported name is written after where some file imports that
    path ("compares with crypto/subtle.ConstantTimeCompare"); else ``text`` itself."""
    named = _GO_MEMBER.fullmatch(text)
    return named["path"] if named is not None and fp.importers(named["path"]) else text


_STD_ROOTS = frozenset(p.partition("/")[0] for p in GO_STD_PACKAGES)


def words_joined(text: str, modifying: bool = False) -> bool:
    """Whether a path is words joined by "/": two English words before a noun
    (``modifying``), the first no package of Go's standard library ("obtain/renew retries";
    "spf13/viper" and "uses gorilla/context" are modules named by their owners),
    or three or more parts that start like one and are none of them, nor under one
    ("debug/release/test").
    ("sync/once" stays a package a note names, which no file imports.)"""
    parts = text.split("/")
    if (modifying and len(parts) == 2 and parts[0] not in _STD_ROOTS
            and all(is_ordinary_word(p) for p in parts)):  # fmt: skip
        return True  # "obtain/renew retries": two words before a noun, no package
    return (len(parts) > 2 and parts[0] in _STD_ROOTS and not any(
        "/".join(parts[:n]) in GO_STD_PACKAGES for n in range(1, len(parts) + 1)))

