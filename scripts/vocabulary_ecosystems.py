"""What the vocabulary knows of technologies from npm, Go modules and crates (curated).

A Python repository's notes name these too ("the frontend uses Pinia", "the agent is written
in Go", "the worker runs on tokio"), and a polyglot repository imports them. Each
technology lists its *packages*: ``npm:NAME``, ``go:MODULE/PATH`` (without a ``/vN`` major
version suffix: ``go:github.com/redis/go-redis`` is every major version) and
``cargo:CRATE`` (as published; imported with ``-`` as ``_``). A Go module path is written
as Go spells it (``github.com/IBM/sarama``): imports and ``go.mod`` are compared exactly.

Sources:

* ``ECOSYSTEM_TECHS``: technologies written here, by hand, from each ecosystem's most used
  packages: for npm the front-end frameworks, state, data, test and build tools of its most
  downloaded packages; for Go the web frameworks, drivers, CLI, config, logging and test
  modules that Go projects most often require (gin, echo, fiber, chi, gorilla/mux, pgx,
  gorm, cobra, viper, zap, logrus, testify...); for crates the most downloaded crates a
  note would name (tokio, serde, axum, actix-web, reqwest, clap, anyhow, sqlx, tracing,
  env_logger, tower, rustls...), and for both the packages a service's notes name for
  logging, HTTP (quic-go, fasthttp, gorilla/websocket), CLI, database drivers and
  migrations (pkg.go.dev's "imported by" counts and crates.io's "most downloaded" list,
  read by hand: no registry list is downloaded). Display
  names and prose spellings ("Vue.js", "Vue 3", "go-redis") are the projects' own.
* ``ATTACHED``: the packages (and spellings and footprints) of technologies the vocabulary
  already has (a curated system of ``vocabulary_systems.py`` or a PyPI package row):
  ``pg`` and ``pgx`` are PostgreSQL's, ``@sentry/node`` is Sentry's, ``npm:typescript``
  and ``*.ts`` are TypeScript's.
* ``npm_popular``: more npm packages, from a list of the registry's packages with their
  downloads of a month (``--npm FILE`` of ``scripts/refresh_vocabulary.py``: a
  tab-separated file whose header names a ``name`` and a ``downloads_a_month`` column).
  For each of ``NPM_KEYWORDS``, the most downloaded packages whose name or summary has the
  word; only distinctive names are kept (``npm_popular`` says which are left out); the
  refresh drops those that are ordinary English words or that another technology already
  answers to.

None of these technologies has PyPI distributions or imports of its own: a Python
``requests`` and an npm ``request`` stay two things, and an npm package named like a PyPI
distribution is looked for in ``package.json``, never in ``requirements.txt``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

ECOSYSTEMS = ("npm", "go", "cargo")


@dataclass(frozen=True)
class EcoTech:
    name: str
    display: str
    aliases: tuple[str, ...]
    packages: tuple[str, ...]
    footprints: tuple[str, ...] = ()
    tokens: tuple[str, ...] = ()  # besides the distinctive one-word aliases


@dataclass(frozen=True)
class Attached:
    packages: tuple[str, ...]
    aliases: tuple[str, ...] = ()
    footprints: tuple[str, ...] = ()


def E(name: str, display: str, aliases: str, packages: str, footprints: str = "",
      tokens: str = "") -> EcoTech:  # fmt: skip
    """One technology: ``aliases`` separated by ``|`` (they may hold spaces), the other lists
    by whitespace."""
    return EcoTech(
        name,
        display,
        tuple(a.strip().lower() for a in aliases.split("|") if a.strip()),
        tuple(packages.split()),
        tuple(footprints.split()),
        tuple(tokens.split()),
    )


def A(packages: str, aliases: str = "", footprints: str = "") -> Attached:
    return Attached(
        tuple(packages.split()),
        tuple(a.strip().lower() for a in aliases.split("|") if a.strip()),
        tuple(footprints.split()),
    )


ECOSYSTEM_TECHS: tuple[EcoTech, ...] = (
    # languages and runtimes
    E("golang", "Go", "golang|go lang|go language", "", "go.mod go.sum *.go"),
    E("rust", "Rust", "rust|rustlang|rust lang|rust language", "",
      "Cargo.toml Cargo.lock *.rs", "rustc rustup"),
    # npm: front-end frameworks
    E("react", "React", "react|react.js|reactjs", "npm:react npm:react-dom"),
    E("vue", "Vue.js", "vue|vue.js|vuejs|vue 3|vue3|vue 2|vue2", "npm:vue", "*.vue"),
    E("angular", "Angular", "angular", "npm:@angular/core npm:@angular/cli", "angular.json"),
    E("angularjs", "AngularJS", "angularjs|angular.js|angular 1", "npm:angular"),
    E("svelte", "Svelte", "svelte", "npm:svelte", "*.svelte svelte.config.js"),
    E("sveltekit", "SvelteKit", "sveltekit|svelte kit", "npm:@sveltejs/kit"),
    E("nuxt", "Nuxt", "nuxt|nuxt.js|nuxtjs|nuxt 3", "npm:nuxt", "nuxt.config.ts nuxt.config.js"),
    E("remix", "Remix", "remix|remix.run", "npm:@remix-run/react npm:@remix-run/node npm:remix",
      "remix.config.js"),
    E("astro", "Astro", "astro", "npm:astro", "astro.config.mjs astro.config.ts *.astro"),
    E("solidjs", "SolidJS", "solidjs|solid.js|solid js", "npm:solid-js"),
    E("preact", "Preact", "preact", "npm:preact"),
    E("gatsby", "Gatsby", "gatsby|gatsbyjs|gatsby.js", "npm:gatsby",
      "gatsby-config.js gatsby-config.ts"),
    E("ember", "Ember.js", "ember|ember.js|emberjs", "npm:ember-source", "ember-cli-build.js"),
    E("jquery", "jQuery", "jquery", "npm:jquery"),
    E("backbone", "Backbone.js", "backbone.js|backbonejs", "npm:backbone"),
    E("alpinejs", "Alpine.js", "alpine.js|alpinejs", "npm:alpinejs"),
    E("htmx", "htmx", "htmx", "npm:htmx.org"),
    E("qwik", "Qwik", "qwik", "npm:@builder.io/qwik"),
    E("react-native", "React Native", "react native|react-native", "npm:react-native"),
    E("electron", "Electron", "electron|electron.js|electronjs", "npm:electron"),
    E("ionic", "Ionic", "ionic|ionic framework", "npm:@ionic/core npm:@ionic/angular "
      "npm:@ionic/react npm:@ionic/vue", "ionic.config.json"),
    E("capacitor", "Capacitor", "capacitor|capacitorjs", "npm:@capacitor/core",
      "capacitor.config.ts capacitor.config.json"),
    # npm: state and data fetching
    E("redux", "Redux", "redux|redux toolkit|reduxjs|rtk query",
      "npm:redux npm:@reduxjs/toolkit npm:react-redux"),
    E("pinia", "Pinia", "pinia", "npm:pinia"),
    E("vuex", "Vuex", "vuex", "npm:vuex"),
    E("mobx", "MobX", "mobx", "npm:mobx npm:mobx-react"),
    E("zustand", "Zustand", "zustand", "npm:zustand"),
    E("jotai", "Jotai", "jotai", "npm:jotai"),
    E("recoil", "Recoil", "recoil|recoiljs", "npm:recoil"),
    E("xstate", "XState", "xstate", "npm:xstate"),
    E("tanstack-query", "TanStack Query", "tanstack query|react query|react-query|vue query|"
      "tanstack", "npm:@tanstack/react-query npm:@tanstack/vue-query npm:@tanstack/query-core "
      "npm:react-query"),
    E("swr", "SWR", "swr", "npm:swr"),
    E("trpc", "tRPC", "trpc", "npm:@trpc/server npm:@trpc/client"),
    E("rxjs", "RxJS", "rxjs", "npm:rxjs"),
    E("immer", "Immer", "immer", "npm:immer"),
    # npm: servers, data access, utilities
    E("express", "Express", "express|express.js|expressjs", "npm:express"),
    E("koa", "Koa", "koa|koa.js|koajs", "npm:koa"),
    E("fastify", "Fastify", "fastify", "npm:fastify"),
    E("nestjs", "NestJS", "nestjs|nest.js", "npm:@nestjs/core npm:@nestjs/common",
      "nest-cli.json"),
    E("hapi", "hapi", "hapi|hapi.js|hapijs", "npm:@hapi/hapi npm:hapi"),
    E("hono", "Hono", "hono", "npm:hono"),
    E("socket-io", "Socket.IO", "socket.io|socket io", "npm:socket.io npm:socket.io-client"),
    E("typeorm", "TypeORM", "typeorm", "npm:typeorm"),
    E("sequelize", "Sequelize", "sequelize", "npm:sequelize"),
    E("mongoose", "Mongoose", "mongoose", "npm:mongoose"),
    E("knex", "Knex.js", "knex|knex.js|knexjs", "npm:knex", "knexfile.js knexfile.ts"),
    E("drizzle", "Drizzle ORM", "drizzle|drizzle orm|drizzle-orm", "npm:drizzle-orm",
      "drizzle.config.ts"),
    E("axios", "Axios", "axios", "npm:axios"),
    E("superagent", "SuperAgent", "superagent", "npm:superagent"),
    E("lodash", "Lodash", "lodash", "npm:lodash npm:lodash-es"),
    E("momentjs", "Moment.js", "moment.js|momentjs", "npm:moment"),
    E("dayjs", "Day.js", "day.js|dayjs", "npm:dayjs"),
    E("date-fns", "date-fns", "date-fns", "npm:date-fns"),
    E("luxon", "Luxon", "luxon", "npm:luxon"),
    E("zod", "Zod", "zod", "npm:zod"),
    E("yup", "Yup", "yup", "npm:yup"),
    E("joi", "Joi", "joi", "npm:joi"),
    E("ajv", "Ajv", "ajv", "npm:ajv"),
    E("winston", "Winston", "winston", "npm:winston"),
    E("pino", "Pino", "pino", "npm:pino"),
    E("morgan", "Morgan", "morgan", "npm:morgan"),
    E("yargs", "yargs", "yargs", "npm:yargs"),
    E("i18next", "i18next", "i18next", "npm:i18next npm:react-i18next"),
    E("d3", "D3.js", "d3|d3.js|d3js", "npm:d3"),
    E("threejs", "Three.js", "three.js|threejs", "npm:three"),
    E("chartjs", "Chart.js", "chart.js|chartjs", "npm:chart.js"),
    E("leaflet", "Leaflet", "leaflet|leaflet.js", "npm:leaflet"),
    E("formik", "Formik", "formik", "npm:formik"),
    E("react-hook-form", "React Hook Form", "react hook form|react-hook-form",
      "npm:react-hook-form"),
    E("react-router", "React Router", "react router|react-router",
      "npm:react-router npm:react-router-dom"),
    E("vue-router", "Vue Router", "vue router|vue-router", "npm:vue-router"),
    # npm: styling and UI kits
    E("sass", "Sass", "sass|scss", "npm:sass npm:node-sass", "*.scss *.sass"),
    E("lesscss", "Less", "less.js|lesscss", "npm:less", "*.less"),
    E("postcss", "PostCSS", "postcss", "npm:postcss", "postcss.config.js postcss.config.cjs "
      "postcss.config.mjs"),
    E("styled-components", "styled-components", "styled-components|styled components",
      "npm:styled-components"),
    E("emotion", "Emotion", "emotion", "npm:@emotion/react npm:@emotion/styled"),
    E("bootstrap", "Bootstrap", "bootstrap", "npm:bootstrap"),
    E("material-ui", "MUI", "mui|material ui|material-ui", "npm:@mui/material "
      "npm:@material-ui/core"),
    E("chakra-ui", "Chakra UI", "chakra ui|chakra-ui", "npm:@chakra-ui/react"),
    E("ant-design", "Ant Design", "ant design|antd", "npm:antd"),
    E("vuetify", "Vuetify", "vuetify", "npm:vuetify"),
    E("element-plus", "Element Plus", "element plus|element-plus", "npm:element-plus"),
    E("quasar", "Quasar", "quasar|quasar framework", "npm:quasar", "quasar.config.js"),
    E("primevue", "PrimeVue", "primevue", "npm:primevue"),
    # npm: tests
    E("vitest", "Vitest", "vitest", "npm:vitest", "vitest.config.ts vitest.config.js "
      "vitest.config.mts"),
    E("mocha", "Mocha", "mocha|mocha.js", "npm:mocha", ".mocharc.yml .mocharc.json .mocharc.js"),
    E("chai", "Chai", "chai|chai.js", "npm:chai"),
    E("sinon", "Sinon.JS", "sinon|sinon.js|sinonjs", "npm:sinon"),
    E("karma", "Karma", "karma", "npm:karma", "karma.conf.js"),
    E("jasmine", "Jasmine", "jasmine", "npm:jasmine npm:jasmine-core"),
    E("testing-library", "Testing Library", "testing library|react testing library|"
      "testing-library", "npm:@testing-library/react npm:@testing-library/vue "
      "npm:@testing-library/dom"),
    E("puppeteer", "Puppeteer", "puppeteer", "npm:puppeteer"),
    E("supertest", "SuperTest", "supertest", "npm:supertest"),
    E("msw", "Mock Service Worker", "msw|mock service worker", "npm:msw"),
    # npm: build, lint, workspaces, process managers
    E("swc", "SWC", "swc", "npm:@swc/core", ".swcrc"),
    E("parcel", "Parcel", "parcel|parcel.js|parceljs", "npm:parcel", ".parcelrc"),
    E("turborepo", "Turborepo", "turborepo|turbo repo", "npm:turbo", "turbo.json"),
    E("nx", "Nx", "nx", "npm:nx", "nx.json"),
    E("lerna", "Lerna", "lerna", "npm:lerna", "lerna.json"),
    E("husky", "Husky", "husky", "npm:husky", ".husky/*"),
    E("lint-staged", "lint-staged", "lint-staged", "npm:lint-staged", ".lintstagedrc "
      ".lintstagedrc.*"),
    E("nodemon", "nodemon", "nodemon", "npm:nodemon", "nodemon.json"),
    E("pm2", "PM2", "pm2", "npm:pm2", "ecosystem.config.js"),
    E("ts-node", "ts-node", "ts-node", "npm:ts-node"),
    # npm: tools configured by their own files, beside package.json (a spell checker, a
    # commit-message linter, style and Markdown linters, a documentation generator)
    E("cspell", "CSpell", "cspell", "npm:cspell", ".cspell.json cspell.json .cSpell.json "
      "cSpell.json cspell.config.* .cspell.config.* cspell.yaml cspell.yml .cspellrc "
      ".cspellrc.json"),
    E("commitlint", "commitlint", "commitlint", "npm:@commitlint/cli npm:commitlint",
      "commitlint.config.js commitlint.config.cjs commitlint.config.mjs commitlint.config.ts "
      ".commitlintrc .commitlintrc.*"),
    E("stylelint", "Stylelint", "stylelint", "npm:stylelint", ".stylelintrc .stylelintrc.* "
      "stylelint.config.js stylelint.config.cjs stylelint.config.mjs"),
    E("markdownlint", "markdownlint", "markdownlint", "npm:markdownlint npm:markdownlint-cli "
      "npm:markdownlint-cli2", ".markdownlint.json .markdownlint.jsonc .markdownlint.yaml "
      ".markdownlint.yml .markdownlintrc .markdownlint-cli2.*"),
    E("typedoc", "TypeDoc", "typedoc", "npm:typedoc", "typedoc.json"),
    # Go modules
    E("gin", "Gin", "gin|gin-gonic|gin gonic", "go:github.com/gin-gonic/gin"),
    E("labstack-echo", "Echo", "labstack echo|labstack/echo|echo framework",
      "go:github.com/labstack/echo"),
    E("fiber", "Fiber", "fiber|gofiber", "go:github.com/gofiber/fiber"),
    E("chi", "chi", "chi|go-chi", "go:github.com/go-chi/chi"),
    E("gorilla-mux", "Gorilla Mux", "gorilla mux|gorilla/mux", "go:github.com/gorilla/mux"),
    E("gorm", "GORM", "gorm", "go:gorm.io/gorm"),
    E("ent", "ent", "entgo", "go:entgo.io/ent"),
    E("cobra", "Cobra", "cobra", "go:github.com/spf13/cobra"),
    E("viper", "Viper", "viper", "go:github.com/spf13/viper"),
    E("zap", "Zap", "zap|uber zap", "go:go.uber.org/zap"),
    E("logrus", "Logrus", "logrus", "go:github.com/sirupsen/logrus"),
    E("zerolog", "zerolog", "zerolog", "go:github.com/rs/zerolog"),
    E("testify", "Testify", "testify", "go:github.com/stretchr/testify"),
    E("ginkgo", "Ginkgo", "ginkgo", "go:github.com/onsi/ginkgo go:github.com/onsi/gomega"),
    E("uber-fx", "Fx", "uber fx", "go:go.uber.org/fx"),
    E("bubbletea", "Bubble Tea", "bubbletea|bubble tea", "go:github.com/charmbracelet/bubbletea"),
    E("sqlx", "sqlx", "sqlx", "go:github.com/jmoiron/sqlx cargo:sqlx"),
    E("quic-go", "quic-go", "quic-go|quic go", "go:github.com/quic-go/quic-go "
      "go:github.com/lucas-clemente/quic-go"),
    E("fasthttp", "fasthttp", "fasthttp", "go:github.com/valyala/fasthttp"),
    E("gorilla-websocket", "Gorilla WebSocket", "gorilla websocket|gorilla/websocket",
      "go:github.com/gorilla/websocket"),
    E("urfave-cli", "urfave/cli", "urfave cli|urfave/cli", "go:github.com/urfave/cli"),
    E("grpc-gateway", "gRPC-Gateway", "grpc-gateway|grpc gateway",
      "go:github.com/grpc-ecosystem/grpc-gateway"),
    E("go-kit", "Go kit", "go-kit|go kit|gokit", "go:github.com/go-kit/kit"),
    E("golang-migrate", "golang-migrate", "golang-migrate|migrate/migrate",
      "go:github.com/golang-migrate/migrate"),
    E("bbolt", "bbolt", "bbolt|boltdb", "go:go.etcd.io/bbolt go:github.com/boltdb/bolt"),
    E("badgerdb", "Badger", "badgerdb|dgraph badger", "go:github.com/dgraph-io/badger"),
    # crates
    E("tokio", "Tokio", "tokio", "cargo:tokio"),
    E("serde", "Serde", "serde|serde_json|serde json", "cargo:serde cargo:serde_json"),
    E("axum", "Axum", "axum", "cargo:axum"),
    E("actix-web", "Actix Web", "actix|actix-web|actix web", "cargo:actix-web cargo:actix"),
    E("rocket", "Rocket", "rocket|rocket.rs", "cargo:rocket", "Rocket.toml"),
    E("warp", "warp", "warp", "cargo:warp"),
    E("hyper-rs", "hyper", "hyper.rs|hyper-rs", "cargo:hyper"),
    E("reqwest", "reqwest", "reqwest", "cargo:reqwest"),
    E("clap", "clap", "clap", "cargo:clap"),
    E("anyhow", "anyhow", "anyhow", "cargo:anyhow"),
    E("thiserror", "thiserror", "thiserror", "cargo:thiserror"),
    E("tokio-tracing", "tracing", "tokio-tracing|tracing-subscriber",
      "cargo:tracing cargo:tracing-subscriber"),
    E("diesel", "Diesel", "diesel", "cargo:diesel", "diesel.toml"),
    E("sea-orm", "SeaORM", "seaorm|sea-orm|sea orm", "cargo:sea-orm"),
    E("rayon", "Rayon", "rayon", "cargo:rayon"),
    E("rand-crate", "rand", "rand", "cargo:rand"),
    E("chrono", "chrono", "chrono", "cargo:chrono"),
    E("tonic", "tonic", "tonic", "cargo:tonic"),
    E("bevy", "Bevy", "bevy", "cargo:bevy"),
    E("tauri", "Tauri", "tauri", "cargo:tauri npm:@tauri-apps/api", "tauri.conf.json"),
    E("yew", "Yew", "yew", "cargo:yew"),
    E("leptos", "Leptos", "leptos", "cargo:leptos"),
    E("wasm-bindgen", "wasm-bindgen", "wasm-bindgen|wasm bindgen", "cargo:wasm-bindgen"),
    E("proptest", "proptest", "proptest", "cargo:proptest"),
    E("env-logger", "env_logger", "env_logger|env-logger", "cargo:env_logger"),
    E("tower-rs", "Tower", "tower-http", "cargo:tower cargo:tower-http"),
    E("rustls", "rustls", "rustls", "cargo:rustls"),
    E("async-std", "async-std", "async-std|async_std", "cargo:async-std"),
    E("crossbeam", "crossbeam", "crossbeam", "cargo:crossbeam"),
    E("criterion-rs", "Criterion.rs", "criterion.rs", "cargo:criterion"),
    E("mockall", "mockall", "mockall", "cargo:mockall"),
    E("indicatif", "indicatif", "indicatif", "cargo:indicatif"),
)

# Technologies the vocabulary has already (by their name there) and their packages here.
ATTACHED: dict[str, Attached] = {
    "typescript": A("npm:typescript", "", "*.ts *.tsx *.mts *.cts"),
    "nodejs": A("", "", "package.json"),
    "jest": A("npm:jest npm:ts-jest", "", "jest.config.mjs jest.config.cjs"),
    "nextjs": A("npm:next"),
    # JavaScript's Babel beside the PyPI one (the i18n library), by its core package
    "babel": A("npm:@babel/core"),
    "vite": A("npm:vite"),
    "webpack": A("npm:webpack npm:webpack-cli"),
    "rollup": A("npm:rollup"),
    "esbuild": A("npm:esbuild"),
    "eslint": A("npm:eslint"),
    "prettier": A("npm:prettier"),
    "tailwind": A("npm:tailwindcss"),
    "storybook": A("npm:storybook npm:@storybook/react npm:@storybook/vue3"),
    "cypress": A("npm:cypress"),
    "docusaurus": A("npm:@docusaurus/core"),
    "expo": A("npm:expo"),
    "yarn": A("npm:yarn"),
    "pnpm": A("npm:pnpm"),
    "playwright": A("npm:playwright npm:@playwright/test"),
    "selenium": A("npm:selenium-webdriver"),
    "grpcio": A("npm:@grpc/grpc-js go:google.golang.org/grpc", "grpc-go"),
    "protobuf": A("npm:protobufjs go:google.golang.org/protobuf cargo:prost"),
    "postgresql": A("npm:pg npm:postgres go:github.com/jackc/pgx go:github.com/lib/pq "
                    "cargo:tokio-postgres cargo:postgres", "pgx|node-postgres"),
    "mysql": A("npm:mysql npm:mysql2 go:github.com/go-sql-driver/mysql cargo:mysql"),
    "sqlite": A("npm:sqlite3 npm:better-sqlite3 go:github.com/mattn/go-sqlite3 cargo:rusqlite",
                "rusqlite|better-sqlite3"),
    "mongodb": A("npm:mongodb go:go.mongodb.org/mongo-driver cargo:mongodb"),
    "redis": A("npm:redis npm:ioredis go:github.com/redis/go-redis go:github.com/go-redis/redis "
               "go:github.com/gomodule/redigo cargo:redis", "go-redis|ioredis|node-redis"),
    "kafka": A("npm:kafkajs go:github.com/segmentio/kafka-go go:github.com/IBM/sarama "
               "go:github.com/Shopify/sarama go:github.com/confluentinc/confluent-kafka-go "
               "cargo:rdkafka", "kafkajs|sarama"),
    "rabbitmq": A("npm:amqplib go:github.com/rabbitmq/amqp091-go go:github.com/streadway/amqp "
                  "cargo:lapin", "amqplib"),
    "nats": A("npm:nats go:github.com/nats-io/nats.go cargo:async-nats"),
    "elasticsearch": A("npm:@elastic/elasticsearch go:github.com/elastic/go-elasticsearch"),
    "stripe": A("npm:stripe go:github.com/stripe/stripe-go"),
    "sentry": A("npm:@sentry/node npm:@sentry/browser npm:@sentry/react npm:@sentry/nextjs "
                "go:github.com/getsentry/sentry-go cargo:sentry"),
    "aws": A("npm:aws-sdk npm:@aws-sdk/client-s3 go:github.com/aws/aws-sdk-go "
             "go:github.com/aws/aws-sdk-go-v2 cargo:aws-config cargo:aws-sdk-s3"),
    "firebase": A("npm:firebase npm:firebase-admin go:firebase.google.com/go"),
    "opentelemetry": A("npm:@opentelemetry/api go:go.opentelemetry.io/otel cargo:opentelemetry"),
    "prometheus": A("npm:prom-client go:github.com/prometheus/client_golang cargo:prometheus"),
    "datadog": A("npm:dd-trace go:gopkg.in/DataDog/dd-trace-go.v1"),
    "kubernetes": A("go:k8s.io/client-go npm:@kubernetes/client-node cargo:kube"),
    "temporal": A("go:go.temporal.io/sdk npm:@temporalio/client npm:@temporalio/worker"),
    "openai": A("npm:openai go:github.com/sashabaranov/go-openai"),
    "anthropic": A("npm:@anthropic-ai/sdk"),
    "langchain": A("npm:langchain npm:@langchain/core"),
    "apollo-graphql": A("npm:@apollo/client npm:@apollo/server npm:apollo-server "
                        "npm:apollo-client", "apollo client"),
    "bullmq": A("npm:bullmq npm:bull", "bull queue"),
}

# Aliases that are ordinary words in prose all the same, whatever their frequency ("we
# bootstrap the app", "a drizzle of"): they name the technology only in a technology
# context, and are never mention tokens (``refresh_vocabulary.ORDINARY_NAMES`` for PyPI).
ORDINARY_ALIASES = frozenset(
    str.split(
        """
    anyhow bootstrap capacitor chai drizzle ember ent gatsby husky ionic leaflet quasar
    rayon recoil tonic viper zap yew astro sass mocha jasmine karma emotion express gin
    fiber chi cobra warp rocket clap diesel rand go rust remix electron immer joi yup pino
    winston morgan bubble tea parcel nx lerna react hono koa
    """
    )
) | {"bubble tea", "go lang", "go language", "rust lang", "rust language", "go kit"}

# PyPI distributions that the download ranks list under a technology's name but that are
# not it: the vocabulary leaves them out, so the name is the technology's. ("rust" on PyPI
# is a Ribo-Seq tool.)
DISPLACED_DISTS = frozenset({"rust"})

# npm_popular: the registry's most downloaded packages having each of these words in their
# name or summary, NPM_PER_KEYWORD of each, at least NPM_MIN_DOWNLOADS a month.
NPM_KEYWORDS = tuple(
    str.split(
        """
    framework react vue angular svelte test testing state store http server router orm
    database sql ui component css style build bundler lint linter logger logging
    validation schema graphql websocket cli template queue
    """
    )
)
NPM_PER_KEYWORD = 40
NPM_MIN_DOWNLOADS = 2_000_000
# A name of letters alone is kept only below this Zipf frequency: "validator", "nock",
# "rewire" are words (or nearly) that prose uses for other things.
NPM_MAX_WORD_ZIPF = 1.0
# Not technologies a note names: plugins, presets, platform binaries, polyfills, helpers of
# one tool, and the parts of a monorepo (``@scope/...``: only the curated ones are kept).
_NPM_NOISE = re.compile(
    r"^(@|postcss-|eslint-plugin-|eslint-config-|babel-plugin-|babel-preset-|lodash\.|"
    r"jest-|workbox-|rc-|unist-|mdast-|hast-|micromark|vscode-|d3-|is-|has-|es-|@types/|"
    r"webpack-|rollup-plugin-|vite-plugin-|prettier-plugin-|stylelint-config-|react-is$|"
    r"types?$)|(-(linux|darwin|win32|windows|android|freebsd|netbsd|openbsd|sunos)(-|$)|"
    r"-(arm64|x64|ia32|64|32)$|-musl|-gnu$|-loader$|-plugin$|"
    r"-polyfill$|-utils?$|-helpers?$|-types$|-parser$|-compat$|-shim$|-core$)"
)
_NPM_NAME = re.compile(r"[a-z][a-z0-9.-]*[a-z0-9]\Z")


def npm_popular(path: Path) -> list[tuple[str, int]]:
    """(name, monthly downloads) of the npm packages ``NPM_KEYWORDS`` select from the list at
    ``path``, most downloaded first. Names of 3 characters or fewer, scoped names and
    ``_NPM_NOISE`` are left out."""
    downloads: dict[str, int] = {}
    summaries: dict[str, str] = {}
    lines = path.read_text(encoding="utf-8").splitlines()
    header = lines[0].split("\t")
    name_col = header.index("name")
    count_col = next(i for i, h in enumerate(header) if h.startswith("downloads"))
    summary_col = next((i for i, h in enumerate(header) if h.startswith("summary")), None)
    for line in lines[1:]:
        cols = line.split("\t")
        if len(cols) <= count_col or not cols[count_col].isdigit():
            continue
        name, count = cols[name_col].strip().lower(), int(cols[count_col])
        if count < NPM_MIN_DOWNLOADS or len(name) <= 3 or not _NPM_NAME.match(name):
            continue
        if _NPM_NOISE.search(name):
            continue
        downloads[name] = max(count, downloads.get(name, 0))
        if summary_col is not None and len(cols) > summary_col:
            summaries[name] = cols[summary_col].lower()
    ordered = sorted(downloads, key=lambda n: (-downloads[n], n))
    chosen: set[str] = set()
    for keyword in NPM_KEYWORDS:
        word = re.compile(rf"\b{keyword}\b")
        found = [n for n in ordered
                 if word.search(n.replace("-", " ")) or word.search(summaries.get(n, ""))]
        chosen.update(found[:NPM_PER_KEYWORD])
    return [(n, downloads[n]) for n in ordered if n in chosen]


def package_key(entry: str) -> tuple[str, str]:
    """``npm:Vue`` -> ("npm", "vue"): the ecosystem and the name as indexes compare it."""
    ecosystem, _, name = entry.partition(":")
    if ecosystem not in ECOSYSTEMS or not name:
        raise ValueError(f"not an ecosystem package: {entry!r}")
    return ecosystem, name.lower().replace("_", "-") if ecosystem == "cargo" else name.lower()
