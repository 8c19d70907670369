"""Facts extracted from JavaScript, TypeScript, Vue and Svelte sources: imports, definitions,
constants and environment reads, with line numbers of the file as stored."""

from __future__ import annotations

import textwrap

from hypothesis import given, settings
from hypothesis import strategies as st

from anchors.facts import FileFacts, ImportFact, NotRead, ValueFact
from anchors.fingerprint import CodeSource, InMemoryFactsCache
from anchors.jsfacts import extract_js
from anchors.pyfacts import body_hash
from anchors.spec import parse_anchor
from anchors.verdicts import Verdict
from anchors.verify import check_anchor
from tests.conftest import GitRepo


def facts(source: str, dialect: str = "typescript") -> FileFacts:
    return extract_js(textwrap.dedent(source).lstrip("\n").encode(), dialect)


def imports(source: str, dialect: str = "typescript") -> list[tuple[str, tuple[str, ...], str]]:
    return [(i.module, i.names, i.within) for i in facts(source, dialect).imports]


def definitions(source: str, dialect: str = "typescript") -> list[str]:
    return [d.qualname for d in facts(source, dialect).definitions]


# A real-looking TypeScript service module, used by several tests and the fuzz test.
SERVICE_TS = textwrap.dedent(
    """\
    import type { AxiosInstance } from "axios";
    import axios from "axios";
    import { z } from "zod";
    import * as path from "node:path";
    import "./polyfills";

    export const DEFAULT_TIMEOUT = 5000;
    export const API_URL = process.env.API_URL || "http://localhost:8080";
    const RETRIES = -3;

    export interface ClientOptions extends BaseOptions {
      baseURL: string;
      timeout?: number;
    }

    export type Handler = (req: Request) => Promise<Response>;

    export enum Status {
      Active = "active",
      Disabled = "disabled",
    }

    export class ApiClient extends http.BaseClient {
      private readonly http: AxiosInstance;
      static instances = 0;
      onError = (error: unknown) => console.error(error);

      constructor(options: ClientOptions) {
        super();
        this.http = axios.create({ baseURL: options.baseURL });
      }

      async get<T>(url: string): Promise<T> {
        const { default: retry } = await import("p-retry");
        return retry(() => this.http.get(url)).then((r) => r.data);
      }

      get base(): string {
        return path.join("/", "api");
      }
    }

    export default function createClient(options: ClientOptions): ApiClient {
      const { Agent } = require("node:https");
      return new ApiClient(options);
    }
    """
).encode()


# Imports -------------------------------------------------------------------------------


def test_static_import_forms_name_the_imported_bindings_not_the_local_aliases() -> None:
    assert imports(
        """
        import axios from "axios";
        import { ref, computed as c } from "@vue/runtime-core";
        import * as fp from "lodash/fp";
        import api, { get } from "./api/client";
        import "./styles.css";
        import { default as React } from "react";
        """
    ) == [
        ("axios", ("default",), ""),
        ("@vue/runtime-core", ("ref", "computed"), ""),
        ("lodash/fp", ("*",), ""),
        ("./api/client", ("default", "get"), ""),
        ("./styles.css", (), ""),
        ("react", ("default",), ""),
    ]


def test_import_lines_are_one_based() -> None:
    found = facts(SERVICE_TS.decode()).imports
    assert [(i.module, i.line) for i in found[:5]] == [
        ("axios", 1),
        ("axios", 2),
        ("zod", 3),
        ("node:path", 4),
        ("./polyfills", 5),
    ]


def test_type_only_imports_are_typing_and_mixed_ones_are_not() -> None:
    found = facts(
        """
        import type { Config } from "./config";
        import { type User, type Role } from "./models";
        import { type Session, createSession } from "./session";
        import type Koa from "koa";
        export type { Plugin } from "vite";
        export { type Options, build } from "esbuild";
        """
    ).imports
    assert [(i.module, i.names, i.typing) for i in found] == [
        ("./config", ("Config",), True),
        ("./models", ("User", "Role"), True),
        ("./session", ("Session", "createSession"), False),
        ("koa", ("default",), True),
        ("vite", ("Plugin",), True),
        ("esbuild", ("Options", "build"), False),
    ]


def test_reexports_are_imports_of_their_source_module() -> None:
    assert imports(
        """
        export * from "./errors";
        export * as schemas from "./schemas";
        export { parse, safeParse as tryParse } from "./parse";
        export { default } from "./client";
        export { helper };
        """,
        "javascript",
    ) == [
        ("./errors", ("*",), ""),
        ("./schemas", ("*",), ""),
        ("./parse", ("parse", "safeParse"), ""),
        ("./client", ("default",), ""),
    ]


def test_require_and_dynamic_import_at_top_level_and_inside_definitions() -> None:
    found = facts(
        """
        const express = require("express");
        const { Router, json: parseJson } = require('express');
        const debug = require(`debug`)("app");
        const version = require("./package.json").version;

        function loadPlugins() {
          const plugin = require("./plugins/" + name);
          return require("chalk");
        }

        class Server {
          start() {
            return import("./routes").then((m) => m.default);
          }
          stop = async () => {
            await import(`./shutdown`);
          };
        }

        const lazy = () => import("./views/Heavy.vue");
        app.get("/", () => require("compression"));
        """,
        "javascript",
    ).imports
    assert [(i.module, i.names, i.within, i.line) for i in found] == [
        ("express", (), "", 1),
        ("express", ("Router", "json"), "", 2),
        ("debug", (), "", 3),
        ("./package.json", ("version",), "", 4),
        ("chalk", (), "loadPlugins", 8),
        ("./routes", (), "Server.start", 13),
        ("./shutdown", (), "Server.stop", 16),
        ("./views/Heavy.vue", (), "lazy", 20),
        ("compression", (), "", 21),
    ]


def test_nested_functions_are_not_scopes_the_enclosing_definition_is() -> None:
    found = facts(
        """
        export async function handler(event) {
          const run = async () => {
            const { S3Client } = await import("@aws-sdk/client-s3");
            return new S3Client({});
          };
          return run();
        }
        """,
        "javascript",
    ).imports
    assert found == (ImportFact("@aws-sdk/client-s3", ("S3Client",), "handler", 3, False),)


def test_require_in_strings_comments_and_member_calls_is_not_an_import() -> None:
    assert (
        imports(
            """
            // const fs = require("fs");
            /* import("./x") */
            const text = 'require("path")';
            loader.require("left-pad");
            const m = require(moduleName);
            const t = require(`./locale/${lang}`);
            """,
            "javascript",
        )
        == []
    )


def test_typescript_import_equals_require_and_import_types() -> None:
    found = facts(
        """
        import fs = require("fs");
        type Routes = typeof import("./routes");
        let handler: import("./handler").Handler;
        """
    ).imports
    assert [(i.module, i.typing) for i in found] == [
        ("fs", False),
        ("./routes", True),
        ("./handler", True),
    ]


# Definitions ---------------------------------------------------------------------------


def test_function_declarations_of_every_kind_and_no_nested_functions() -> None:
    assert definitions(
        """
        function plain() {
          function nested() {}
        }
        async function fetchUser(id) {}
        function* ids() {}
        async function* pages() {}
        export function exported() {}
        export default function App() {
          return null;
        }
        """,
        "javascript",
    ) == ["plain", "fetchUser", "ids", "pages", "exported", "App"]


def test_classes_their_bases_and_members_as_class_dot_member() -> None:
    found = facts(SERVICE_TS.decode()).definitions
    by_name = {d.qualname: d for d in found}
    assert [d.qualname for d in found if d.qualname.startswith("ApiClient")] == [
        "ApiClient",
        "ApiClient.http",
        "ApiClient.instances",
        "ApiClient.onError",
        "ApiClient.constructor",
        "ApiClient.get",
        "ApiClient.base",
    ]
    assert by_name["ApiClient"].bases == ("BaseClient",)
    assert by_name["ApiClient"].line == 23
    assert by_name["ApiClient.get"].line == 33
    assert by_name["ClientOptions"].bases == ("BaseOptions",)


def test_getters_setters_static_and_private_methods_and_abstract_classes() -> None:
    found = facts(
        """
        export abstract class Repository<T> extends Base<T> implements Store {
          abstract find(id: string): Promise<T>;
          static create() {}
          get size() { return 0; }
          set size(value: number) {}
          #validate() {}
          [Symbol.iterator]() {}
          count = 0;
        }
        """
    ).definitions
    assert [(d.qualname, d.bases) for d in found] == [
        ("Repository", ("Base",)),
        ("Repository.find", None),
        ("Repository.create", None),
        ("Repository.size", None),
        ("Repository.size", None),
        ("Repository.#validate", None),
        ("Repository.count", None),
    ]


def test_a_class_without_extends_has_no_bases_and_a_computed_base_is_left_out() -> None:
    found = facts(
        """
        class Plain {}
        class Mixed extends mixin(EventEmitter, Disposable) {}
        const Widget = class extends React.Component {
          render() {}
        };
        """,
        "javascript",
    ).definitions
    assert [(d.qualname, d.bases) for d in found] == [
        ("Plain", ()),
        ("Mixed", ()),
        ("Widget", ("Component",)),
        ("Widget.render", None),
    ]


def test_typescript_interfaces_type_aliases_enums_and_namespaces() -> None:
    assert definitions(
        """
        interface User { id: string }
        export type UserId = User["id"];
        export const enum Direction { Up, Down }
        enum Color { Red }
        export namespace Validation {
          export interface StringValidator { isAcceptable(s: string): boolean }
          const lettersRegexp = /^[A-Za-z]+$/;
          export class LettersOnly {
            isAcceptable(s: string) { return lettersRegexp.test(s); }
          }
          namespace Inner { export function f() {} }
        }
        module Legacy { export const x = 1; }
        """
    ) == [
        "User",
        "User.id",
        "UserId",
        "Direction",
        "Direction.Up",
        "Direction.Down",
        "Color",
        "Color.Red",
        "Validation",
        "Validation.StringValidator",
        "Validation.StringValidator.isAcceptable",
        "Validation.lettersRegexp",
        "Validation.LettersOnly",
        "Validation.LettersOnly.isAcceptable",
        "Validation.Inner",
        "Validation.Inner.f",
        "Legacy",
        "Legacy.x",
    ]


def test_class_fields_and_constructor_parameter_properties_are_class_members() -> None:
    found = facts(
        """
        export class GitExtension {
          private _model: Model | null = null;
          protected static readonly instances = 0;
          declare status: string;
          #secret = 1;
          ["computed"] = 2;
          constructor(
            private readonly _app: JupyterFrontEnd,
            public settings?: ISettings,
            plain: number,
          ) {}
        }
        """
    )
    assert [(d.qualname, d.line) for d in found.definitions] == [
        ("GitExtension", 1), ("GitExtension._model", 2), ("GitExtension.instances", 3),
        ("GitExtension.status", 4), ("GitExtension.#secret", 5),
        ("GitExtension.constructor", 7), ("GitExtension._app", 8),
        ("GitExtension.settings", 9),
    ]  # fmt: skip


def test_enum_members_are_definitions_and_literal_ones_constants() -> None:
    found = facts(
        """
        export enum CommandIDs {
          gitUI = 'git:ui',
          gitClone = "git:clone",
          'git-quoted' = 3,
          implicit,
          negative = -1,
          shifted = 1 << 2,
          computed = Date.now(),
        }
        """
    )
    assert [d.qualname for d in found.definitions] == [
        "CommandIDs", "CommandIDs.gitUI", "CommandIDs.gitClone", "CommandIDs.git-quoted",
        "CommandIDs.implicit", "CommandIDs.negative", "CommandIDs.shifted",
        "CommandIDs.computed",
    ]  # fmt: skip
    assert found.constants == (
        ValueFact("CommandIDs.gitUI", "'git:ui'", 2),
        ValueFact("CommandIDs.gitClone", '"git:clone"', 3),
        ValueFact("CommandIDs.git-quoted", "3", 4),
        ValueFact("CommandIDs.negative", "-1", 6),
        ValueFact("CommandIDs.shifted", "1 << 2", 7),  # arithmetic of numbers: a value
    )


def test_namespace_constants_are_qualified_values() -> None:
    found = facts(
        """
        export namespace CommandArguments {
          export const gitClone = 'git:clone';
          export namespace Inner { export const depth = 2; let mutable = 3; }
          export function f() { const local = 4; }
        }
        """
    )
    assert found.constants == (
        ValueFact("CommandArguments.gitClone", "'git:clone'", 2),
        ValueFact("CommandArguments.Inner.depth", "2", 3),
    )


def test_a_constant_declaring_an_environment_variable_name_is_a_read_of_it() -> None:
    found = facts(
        """
        export const PORT_ENV = "PORT";
        const envToken = 'API_TOKEN';
        const HOST_VAR = `HOST`;
        const ENV_PREFIX = "app_";
        const DEFAULT_MODE = "PRODUCTION";
        """
    )
    assert found.env_reads == ("PORT", "API_TOKEN")


def test_comments_are_not_mentions_but_code_and_strings_are() -> None:
    found = facts(
        """
        // We used to cache in redis here.
        const dsn = "postgres://localhost/app"; // was mongodb
        /* kafka was tried
           and dropped */
        const broker = `nats://x
        // rabbitmq`;
        """
    )
    assert not {"redis", "mongodb", "kafka"} & set(found.mentions)
    assert {"postgres", "nats", "rabbitmq"} <= set(found.mentions)


def test_declarations_files_define_what_they_declare() -> None:
    assert definitions(
        """
        declare function greet(name: string): void;
        declare const VERSION: string;
        declare class Widget { render(): void; }
        declare namespace NodeJS.Process { }
        declare module "*.vue" {
          const component: unknown;
          export default component;
        }
        declare global { interface Window { app: unknown } }
        export declare function setup(): void;
        """
    ) == ["greet", "VERSION", "Widget", "Widget.render", "NodeJS.Process", "setup"]


def test_top_level_variables_and_destructured_names_are_definitions() -> None:
    found = facts(
        """
        const a = 1, b = compute();
        let counter = 0;
        var legacy;
        export const { host, port: listenPort, ...rest } = config;
        const [first, [second], third = 3] = list;
        function f() { const local = 1; }
        """,
        "javascript",
    ).definitions
    assert [(d.qualname, d.line) for d in found] == [
        ("a", 1),
        ("b", 1),
        ("counter", 2),
        ("legacy", 3),
        ("host", 4),
        ("listenPort", 4),
        ("rest", 4),
        ("first", 5),
        ("second", 5),
        ("third", 5),
        ("f", 6),
    ]


def test_body_hash_follows_the_definition_text_and_ignores_trailing_whitespace() -> None:
    one = facts("export function area(r) {\n  return Math.PI * r * r;\n}\n", "javascript")
    two = facts("export function area(r) {  \n  return Math.PI * r * r;\n}\n", "javascript")
    three = facts("export function area(r) {\n  return 3.14 * r * r;\n}\n", "javascript")
    text = b"function area(r) {\n  return Math.PI * r * r;\n}"
    assert one.definitions[0].body_hash == body_hash(text)
    assert one.definitions[0].body_hash == two.definitions[0].body_hash
    assert one.definitions[0].body_hash != three.definitions[0].body_hash


# Constants -----------------------------------------------------------------------------


def test_top_level_const_literals_are_constants_and_computed_ones_have_no_text() -> None:
    found = facts(
        """
        export const MAX_PAGE_SIZE = 100;
        const BASE_URL = "https://api.example.com";
        const GREETING = 'hello';
        const TEMPLATE = `plain`;
        const OFFSET = -1.5;
        const DEBUG = false;
        const NOTHING = null;
        const MODE = "strict" as const;
        const COMPUTED = 60 * MAX_PAGE_SIZE;
        const DYNAMIC = `${BASE_URL}/v1`;
        const ARITHMETIC = (60 * 1000) + 5;
        const handler = () => {};
        let mutable = 5;
        function f() { const INNER = 1; }
        """
    ).constants
    assert found == (
        ValueFact("MAX_PAGE_SIZE", "100", 1),
        ValueFact("BASE_URL", '"https://api.example.com"', 2),
        ValueFact("GREETING", "'hello'", 3),
        ValueFact("TEMPLATE", "`plain`", 4),
        ValueFact("OFFSET", "-1.5", 5),
        ValueFact("DEBUG", "false", 6),
        ValueFact("NOTHING", "null", 7),
        ValueFact("MODE", '"strict"', 8),
        ValueFact("COMPUTED", None, 9),
        ValueFact("DYNAMIC", None, 10),
        ValueFact("ARITHMETIC", "(60 * 1000) + 5", 11),
    )


# Environment reads ---------------------------------------------------------------------


def test_each_environment_read_form_in_order_without_repeats() -> None:
    found = facts(
        """
        const port = process.env.PORT;
        const secret = process.env["JWT_SECRET"];
        const region = process.env['AWS_REGION'];
        const { DATABASE_URL, REDIS_URL: redisUrl } = process.env;
        const apiBase = import.meta.env.VITE_API_BASE;
        const { VITE_SENTRY_DSN } = import.meta.env;
        function isProd() {
          return process.env.NODE_ENV === "production" && process.env.PORT;
        }
        """
    )
    assert found.env_reads == (
        "PORT",
        "JWT_SECRET",
        "AWS_REGION",
        "DATABASE_URL",
        "REDIS_URL",
        "VITE_API_BASE",
        "VITE_SENTRY_DSN",
        "NODE_ENV",
    )


def test_environment_writes_and_other_env_objects_are_not_reads() -> None:
    found = facts(
        """
        process.env.NODE_ENV = "test";
        process.env["TZ"] = "UTC";
        const mode = config.env.MODE;
        const key = process.env[name];
        // process.env.COMMENTED
        const s = "process.env.IN_STRING";
        """,
        "javascript",
    )
    assert found.env_reads == ()


def test_environment_defaults_given_by_or_and_nullish_coalescing() -> None:
    found = facts(
        """
        const port = Number(process.env.PORT) || 3000;
        const host = process.env.HOST ?? "0.0.0.0";
        const level = process.env.LOG_LEVEL || 'info';
        const url = import.meta.env.VITE_API_URL ?? `/api`;
        const proxy = process.env.http_proxy || process.env.HTTP_PROXY || "";
        const secret = process.env.SECRET || generate();
        const { TIMEOUT = "30" } = process.env;
        const workers = parseInt(process.env.WORKERS || "4", 10);
        """,
        "javascript",
    )
    assert found.env_defaults == (
        ValueFact("PORT", "3000", 1),
        ValueFact("HOST", '"0.0.0.0"', 2),
        ValueFact("LOG_LEVEL", "'info'", 3),
        ValueFact("VITE_API_URL", "`/api`", 4),
        ValueFact("http_proxy", None, 5),
        ValueFact("HTTP_PROXY", '""', 5),
        ValueFact("SECRET", None, 6),
        ValueFact("TIMEOUT", '"30"', 7),
        ValueFact("WORKERS", '"4"', 8),
    )


# Vue and Svelte components -------------------------------------------------------------

VUE_SFC = b"""\
<template>
  <div class="hello">
    <h1>{{ msg }}</h1>
  </div>
</template>

<script lang="ts">
import { defineComponent } from "vue";
export default defineComponent({ name: "HelloWorld" });
</script>

<script setup lang="ts">
import axios from "axios";
import type { User } from "@/types";
const API_URL = import.meta.env.VITE_API_URL ?? "/api";
const props = defineProps<{ msg: string }>();
async function load(): Promise<User[]> {
  const { data } = await axios.get(API_URL);
  return data;
}
</script>

<style scoped>
.hello { color: red; }
</style>
"""


def test_vue_component_reads_both_script_blocks_with_file_line_numbers() -> None:
    found = extract_js(VUE_SFC, "vue")
    assert found.parsed and found.language == "typescript"
    assert [(i.module, i.line, i.typing) for i in found.imports] == [
        ("vue", 8, False),
        ("axios", 13, False),
        ("@/types", 14, True),
    ]
    assert [(d.qualname, d.line) for d in found.definitions] == [
        ("API_URL", 15),
        ("props", 16),
        ("load", 17),
    ]
    assert found.env_reads == ("VITE_API_URL",)
    assert found.env_defaults == (ValueFact("VITE_API_URL", '"/api"', 15),)


def test_vue_component_without_lang_is_javascript_and_template_is_not_read() -> None:
    found = extract_js(
        b'<template>\n  <p>import x from "nope"; {{ a < b }}</p>\n</template>\n'
        b"<script>\nexport default {\n  data() { return { count: 0 }; },\n};\n</script>\n",
        "vue",
    )
    assert found.parsed and found.language == "javascript"
    assert found.imports == () and found.definitions == ()


def test_component_without_script_block_has_empty_facts_and_is_read() -> None:
    found = extract_js(b"<template>\n  <div>static</div>\n</template>\n", "vue")
    assert found == FileFacts(parsed=True, language="javascript")


def test_svelte_module_and_instance_scripts() -> None:
    found = extract_js(
        b'<script context="module" lang="ts">\n'
        b"  export const prerender = true;\n"
        b"</script>\n\n"
        b"<script>\n"
        b'  import { onMount } from "svelte";\n'
        b"  let count = 0;\n"
        b'  onMount(async () => { await import("./chart.js"); });\n'
        b"</script>\n\n"
        b"<button on:click={() => count++}>{count}</button>\n",
        "svelte",
    )
    assert found.parsed and found.language == "typescript"
    assert found.constants == (ValueFact("prerender", "true", 2),)
    assert [(i.module, i.line) for i in found.imports] == [("svelte", 6), ("./chart.js", 8)]
    assert [d.qualname for d in found.definitions] == ["prerender", "count"]


def test_a_tsx_script_block_is_read_with_the_tsx_grammar() -> None:
    found = extract_js(
        b'<script setup lang="tsx">\nconst view = () => <div class="a">{1 as number}</div>;\n'
        b"</script>\n",
        "vue",
    )
    assert found.parsed and [d.qualname for d in found.definitions] == ["view"]


def test_a_quoted_angle_bracket_in_a_script_tag_and_a_self_closed_script() -> None:
    found = extract_js(
        b'<script src="/analytics.js" />\n'
        b'<script setup lang="ts" generic="T extends Record<string, unknown>">\n'
        b'import { ref } from "vue";\n'
        b"const selected = ref<T | null>(null);\n"
        b"</script>\n"
        b"<template><Item v-for='i in items' /></template>\n",
        "vue",
    )
    assert found.parsed and found.language == "typescript"
    assert [(i.module, i.line) for i in found.imports] == [("vue", 3)]
    assert [(d.qualname, d.line) for d in found.definitions] == [("selected", 4)]


# JSX --------------------------------------------------------------------------------


def test_jsx_in_javascript_and_tsx_parses() -> None:
    jsx = """
        import React from "react";
        export default function App({ items }) {
          return <ul>{items.map((i) => <li key={i.id}>{i.name}</li>)}</ul>;
        }
        """
    tsx = """
        import type { FC } from "react";
        export const Button: FC<{ label: string }> = ({ label }) => <button>{label}</button>;
        export function Card<T,>(props: { item: T }) { return <div>{String(props.item)}</div>; }
        """
    js_facts, tsx_facts = facts(jsx, "javascript"), facts(tsx, "tsx")
    assert js_facts.parsed and js_facts.language == "javascript"
    assert [d.qualname for d in js_facts.definitions] == ["App"]
    assert tsx_facts.parsed and tsx_facts.language == "typescript"
    assert [d.qualname for d in tsx_facts.definitions] == ["Button", "Card"]
    # The plain TypeScript grammar has no JSX: the same file as .ts does not parse.
    assert not facts(tsx, "typescript").parsed


# Syntax errors ------------------------------------------------------------------------


def test_syntax_errors_keep_what_parsed_and_the_word_set() -> None:
    found = facts(
        """
        import express from "express";
        const app = express();
        app.get("/", (req, res) => { res.send( });
        export function listen(port) {
          return app.listen(port);
        }
        """,
        "javascript",
    )
    assert not found.parsed and found.not_read is NotRead.SYNTAX_ERRORS
    assert ("express", ("default",), "") in [(i.module, i.names, i.within) for i in found.imports]
    assert "listen" in [d.qualname for d in found.definitions]
    assert found.words is not None and "listen" in found.words and "res" in found.words


def test_bytes_that_are_not_utf8_and_do_not_parse_say_so() -> None:
    found = extract_js(b"const a = \xff\xfe {{{ ;\nexport function ok() {}\n", "javascript")
    assert not found.parsed and found.not_read is NotRead.NOT_UTF8
    assert found.words is not None and "ok" in found.words


def test_a_clean_file_keeps_no_word_set() -> None:
    found = extract_js(SERVICE_TS, "typescript")
    assert found.parsed and found.not_read is None and found.words is None


def test_whole_line_comments_do_not_count_as_mentions() -> None:
    code = b'import * as Sentry from "@sentry/node";\n'
    assert "sentry" in extract_js(code, "javascript").mentions
    commented = b'// import * as Sentry from "@sentry/node";\n'
    assert "sentry" not in extract_js(commented, "javascript").mentions


# Robustness ---------------------------------------------------------------------------

_DIALECTS = st.sampled_from(["javascript", "typescript", "tsx", "vue", "svelte"])


def _consistent(found: FileFacts, source: bytes) -> None:
    """Every line a fact names is in the file, and every ``within`` names a definition."""
    last = source.count(b"\n") + 1
    qualnames = {d.qualname for d in found.definitions}
    lines = [i.line for i in found.imports] + [d.line for d in found.definitions]
    lines += [c.line for c in (*found.constants, *found.env_defaults)]
    assert all(1 <= line <= last for line in lines)
    assert all(i.within == "" or i.within in qualnames for i in found.imports)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400), _DIALECTS)
def test_random_bytes_never_raise(data: bytes, dialect: str) -> None:
    _consistent(extract_js(data, dialect), data)


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=0, max_value=len(SERVICE_TS)), _DIALECTS, st.binary(max_size=8))
def test_truncated_real_files_never_raise(cut: int, dialect: str, tail: bytes) -> None:
    source = SERVICE_TS[:cut] + tail
    if dialect in ("vue", "svelte"):
        source = b'<script lang="ts">\n' + source
    _consistent(extract_js(source, dialect), source)


def test_the_service_module_as_a_whole() -> None:
    found = extract_js(SERVICE_TS, "typescript")
    assert found.constants[:3] == (
        ValueFact("DEFAULT_TIMEOUT", "5000", 7),
        ValueFact("API_URL", None, 8),
        ValueFact("RETRIES", "-3", 9),
    )
    assert found.env_defaults == (ValueFact("API_URL", '"http://localhost:8080"', 8),)
    dynamic = [(i.module, i.names, i.within) for i in found.imports if i.line > 5]
    assert dynamic == [
        ("p-retry", ("default",), "ApiClient.get"),
        ("node:https", ("Agent",), "createClient"),
    ]


TOKENS = """\
export enum CommandIDs {
  gitUI = 'git:ui',
  gitClone = 'git:clone',
}

export namespace Git {
  export const DEFAULT_REMOTE = 'origin';
}

export class GitExtension {
  private _pathRepository: string | null = null;
}
"""


def test_enum_members_namespace_constants_and_fields_answer_anchors(git_repo: GitRepo) -> None:
    git_repo.commit({"src/tokens.ts": TOKENS, "package.json": '{"name": "git-ext"}\n'})
    with CodeSource(git_repo.root, InMemoryFactsCache()) as source:
        fp = source.fingerprint()
    verdicts = {
        text: check_anchor(parse_anchor(text), None, fp).verdict
        for text in (
            "symbol:src/tokens.ts::CommandIDs.gitClone",
            "symbol:src/tokens.ts::CommandIDs.gitClone='git:clone'",
            "symbol:src/tokens.ts::CommandIDs.gitClone='git:fetch'",
            "symbol:src/tokens.ts::CommandIDs.gitPush",
            "symbol:src/tokens.ts::Git.DEFAULT_REMOTE='origin'",
            "symbol:src/tokens.ts::GitExtension._pathRepository",
        )
    }
    assert verdicts == {
        "symbol:src/tokens.ts::CommandIDs.gitClone": Verdict.HOLDS,
        "symbol:src/tokens.ts::CommandIDs.gitClone='git:clone'": Verdict.HOLDS,
        "symbol:src/tokens.ts::CommandIDs.gitClone='git:fetch'": Verdict.BROKEN,
        "symbol:src/tokens.ts::CommandIDs.gitPush": Verdict.BROKEN,
        "symbol:src/tokens.ts::Git.DEFAULT_REMOTE='origin'": Verdict.HOLDS,
        "symbol:src/tokens.ts::GitExtension._pathRepository": Verdict.HOLDS,
    }


def test_a_class_fields_literal_initial_value_is_a_constant() -> None:
    found = facts(
        "export class Immer {\n  autoFreeze_: boolean = true\n  mode = 'strict'\n"
        "  cache = new Map()\n  run = () => 1\n}\n"
    )
    values = {c.name: c.text for c in found.constants}
    assert values == {"Immer.autoFreeze_": "true", "Immer.mode": "'strict'"}
