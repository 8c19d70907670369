"""Technologies that do one job: two notes naming different members of a family are
likely about the same thing ("errors go to Sentry" and "we report exceptions to Rollbar"),
though they share no word.

``related`` adds a note's families to its terms, so such a pair becomes a candidate for the
agent to judge; nothing is decided from a family. The table is curated from the categories
projects and tool directories use for these products (error tracking, search, CI, ...):
only well-known members, and a product in every family whose job it does (Datadog ships
logs and metrics), and the generic names of the job itself ("the database", "the error
tracker": ``_GENERIC``), which meet every member. A name is matched as whole words,
case-blind; a dotted or spaced name also without its punctuation ("next.js", "nextjs").
"""

from __future__ import annotations

import functools
import re

__all__ = ["FAMILIES", "FAMILY", "MANY_VALUED", "families_of", "members_of", "one_thing"]

FAMILY = "family:"  # the prefix of a family's term

# family: members
_TABLE = """
error-tracking: sentry, rollbar, bugsnag, honeybadger, raygun, airbrake, glitchtip, crashlytics
monitoring: datadog, new relic, newrelic, prometheus, grafana, dynatrace, appdynamics, honeycomb,
  opentelemetry, statsd, cloudwatch, stackdriver, zabbix, nagios, elastic apm
log-shipping: loki, logstash, fluentd, fluent bit, papertrail, splunk, graylog,
  cloudwatch logs, datadog, elk, kibana, logtail
search-engine: elasticsearch, opensearch, algolia, meilisearch, typesense, solr,
  full-text search, pg_trgm, vespa
message-broker: rabbitmq, kafka, sqs, sns, nats, pulsar, activemq, kinesis, pubsub, pub/sub,
  redis streams, eventbridge, zeromq, mqtt
task-queue: celery, rq, sidekiq, dramatiq, huey, bull, bullmq, resque, arq,
  taskiq, django-q, apscheduler
ci: jenkins, jenkinsfile, github actions, .github/workflows, gitlab ci, .gitlab-ci.yml,
  circleci, travis, buildkite, azure pipelines, teamcity, bitbucket pipelines, woodpecker
hosting: aws lambda, heroku, fly.io, vercel, netlify, kubernetes, k8s, docker compose,
  docker-compose, ecs, fargate, elastic beanstalk, app engine, cloud run,
  digitalocean, eks, gke, aks, openshift, ec2
deploy-tool: argocd, argo cd, helm, spinnaker, capistrano, ansible, kustomize
database: postgres, postgresql, mysql, mariadb, sqlite, mongodb, dynamodb, cockroachdb,
  cassandra, oracle, sql server, mssql, firestore, couchdb, neo4j,
  supabase, planetscale, rds, timescaledb, clickhouse, snowflake, bigquery, redshift
cache: redis, memcached, varnish, valkey, elasticache
object-storage: s3, gcs, google cloud storage, azure blob, minio, r2, backblaze, b2
email-delivery: sendgrid, ses, mailgun, postmark, mailchimp, mandrill, sparkpost, smtp,
  mailjet
payments: stripe, braintree, adyen, paypal, paddle, chargebee, recurly, mollie
identity: auth0, okta, keycloak, cognito, firebase auth, clerk, supabase auth,
  azure ad, entra
ui-framework: react, vue, angular, svelte, nuxt, next.js, preact, htmx,
  alpine.js, sveltekit, astro, django templates, jinja, blazor, backbone, jquery
ui-state: redux, redux toolkit, zustand, mobx, pinia, vuex, recoil, jotai, xstate, ngrx
css: tailwind, bootstrap, sass, scss, css modules, styled-components, bulma,
  material ui, mui, chakra
bundler: webpack, vite, esbuild, turbopack, snowpack, rspack, browserify
js-test: jest, vitest, mocha, jasmine
browser-automation: cypress, playwright, selenium, puppeteer, webdriver, testcafe,
  nightwatch
python-test: pytest, unittest, nose, nose2, doctest
python-packaging: pip, poetry, uv, pipenv, pdm, conda, pip-tools, setuptools
js-packaging: npm, yarn, pnpm, bun
schema-migrations: alembic, django migrations, flyway, liquibase, prisma migrate, knex,
  sqitch, dbmate, yoyo
orm: sqlalchemy, django orm, prisma, typeorm, sequelize, peewee, tortoise, sqlmodel,
  hibernate, gorm, diesel, ecto, activerecord, drizzle
python-web: django, flask, fastapi, starlette, pyramid, aiohttp, sanic, litestar
node-web: koa, fastify, hapi, nestjs, adonis
http-client: httpx, aiohttp, urllib3, axios, ofetch, superagent,
  urllib
feature-flags: launchdarkly, unleash, flagsmith, split.io, growthbook
experiment-tracking: mlflow, weights & biases, wandb, tensorboard, clearml
secrets: hashicorp vault, secrets manager, doppler, sops, 1password, parameter store,
  sealed secrets, infisical
infrastructure-as-code: terraform, pulumi, cloudformation, cdk, opentofu, crossplane,
  bicep
edge-proxy: cloudflare, fastly, cloudfront, akamai, nginx, haproxy, traefik, envoy, caddy,
  alb, elb, load balancer, istio, linkerd
api-style: rest api, restful, grpc, graphql, json-rpc, thrift, soap, trpc, websocket, websockets
mobile-stack: flutter, react native, swiftui, uikit, jetpack compose, xamarin,
  cordova, kotlin multiplatform
scheduler: cron, crontab, airflow, dagster, prefect, luigi, celery beat, argo workflows,
  kubernetes cronjob, systemd timer
linter: ruff, flake8, pylint, isort, eslint, prettier, biome, rubocop, golangci-lint,
  clippy, stylelint
type-checker: mypy, pyright, pytype
chat-ops: slack, microsoft teams, discord, mattermost, zulip, pagerduty, opsgenie,
  victorops, incident.io
issue-tracker: jira, github issues, trello, asana, youtrack, clubhouse,
  gitlab issues
analytics: google analytics, mixpanel, amplitude, posthog, plausible, matomo,
  fathom
ml-framework: pytorch, tensorflow, jax, keras, scikit-learn, sklearn, xgboost, lightgbm
model-serving: triton, torchserve, tf serving, bentoml, ray serve, vllm, seldon, kserve,
  sagemaker
rtos: freertos, zephyr, threadx, azure rtos, nuttx, riot os, mbed os, chibios, vxworks
desktop-shell: electron, tauri, qt, gtk, wxwidgets, wpf, winforms, avalonia, neutralino,
  nw.js
feature-store: feast, tecton, hopsworks, featureform
data-fetching: swr, react query, tanstack query, apollo client, rtk query, urql, relay
mobile-http: volley, retrofit, okhttp, alamofire, urlsession, ktor client
"""


# The generic names of each family's job: a note saying "the database" or "the error
# tracker" is about what a note naming Postgres or Sentry is about ("each service has its
# own database" and "all services share one Postgres cluster"). Only names of the job
# itself, never a word that says something else too ("data", "jobs").
_GENERIC = """
error-tracking: error tracker, error tracking, error reporting, crash reporting,
  exception tracking
monitoring: monitoring, metrics, apm, observability
log-shipping: log aggregation, log shipping, centralized logging, log pipeline
search-engine: search index, search engine, search backend
message-broker: message broker, message queue, event bus, event stream
task-queue: task queue, job queue, background jobs, worker queue
ci: ci, continuous integration, ci pipeline, build pipeline
hosting: vm, virtual machine, cluster, serverless, bare metal, paas,
  container orchestration
database: database, databases, db, datastore, rdbms, sql database
cache: cache layer, in-memory cache, caching layer
object-storage: object storage, blob storage, bucket
email-delivery: email provider, mail provider, transactional email
payments: payment provider, payment processor, payment gateway
identity: identity provider, sso, single sign-on, idp, auth provider
schema-migrations: schema migrations, migration tool
orm: orm
http-client: http client
scheduler: scheduler, cron job, scheduled job
issue-tracker: issue tracker, bug tracker, ticket system
feature-flags: feature flag, feature flags, feature toggle, feature toggles
secrets: secret store, secrets store
infrastructure-as-code: infrastructure as code, iac
linter: linter, linting
type-checker: type checker, type checking
analytics: analytics, product analytics
edge-proxy: reverse proxy, cdn
model-serving: model server, inference server
experiment-tracking: experiment tracking
"""


# Families whose products one project commonly uses side by side (a warehouse beside the
# application's database, Cloudflare in front of nginx): naming another one is no rival
# unless a note says its product is the only one (``designs.rival_products``).
MANY_VALUED = frozenset(
    {
        "database", "cache", "message-broker", "object-storage", "payments", "monitoring",
        "log-shipping", "edge-proxy", "api-style", "linter", "chat-ops", "analytics",
        "ml-framework", "http-client", "scheduler", "python-test", "css", "secrets",
        "browser-automation", "type-checker", "python-packaging", "js-packaging",
    }
)  # fmt: skip

# Names of one thing, or of things that go together, in a family: never rivals ("EKS" is
# Kubernetes, Retrofit runs on OkHttp, SwiftUI and UIKit are both native iOS).
_ONE_THING = """
postgres, postgresql, rds, aurora, supabase, timescaledb
mysql, mariadb, rds, aurora, planetscale
kubernetes, k8s, eks, gke, aks, openshift, ec2
ecs, fargate, ec2
docker compose, docker-compose
redux, redux toolkit, rtk query
react query, tanstack query
github actions, .github/workflows
gitlab ci, .gitlab-ci.yml
jenkins, jenkinsfile
elasticsearch, elk, kibana, logstash
swiftui, uikit, jetpack compose
retrofit, okhttp
azure rtos, threadx
next.js, react
nuxt, vue
sveltekit, svelte
firebase auth, firestore
cloudwatch, cloudwatch logs
new relic, newrelic
"""


@functools.cache
def _groups() -> dict[str, frozenset[int]]:
    """Each member of ``_ONE_THING`` and the groups it is in."""
    found: dict[str, set[int]] = {}
    for n, line in enumerate(_ONE_THING.strip().splitlines()):
        for name in line.split(","):
            if name.strip():
                found.setdefault(name.strip(), set()).add(n)
    return {name: frozenset(groups) for name, groups in found.items()}


def one_thing(x: str, y: str) -> bool:
    """Whether two products are one thing, or go together (``_ONE_THING``)."""
    groups = _groups()
    return x == y or bool(groups.get(x, frozenset()) & groups.get(y, frozenset()))


def _parse(table: str) -> dict[str, frozenset[str]]:
    families: dict[str, set[str]] = {}
    name = ""
    for line in table.strip().splitlines():
        head, sep, rest = line.partition(":")
        if sep and not line.startswith(" ") and "/" not in head and " " not in head:
            name, members = head.strip(), rest
        else:
            members = line
        families.setdefault(name, set()).update(
            m.strip().lower() for m in members.split(",") if m.strip()
        )
    return {family: frozenset(members) for family, members in families.items()}


FAMILIES = {
    family: members | _parse(_GENERIC).get(family, frozenset())
    for family, members in _parse(_TABLE).items()
}


def _spellings(member: str) -> set[str]:
    spaced = re.sub(r"[.\-_/]+", " ", member).strip()
    return {member, spaced, spaced.replace(" ", "")}


# A word as a name is written in prose: letters, digits and the marks names keep inside
# ("next.js", "pip-tools", "pub/sub", ".gitlab-ci.yml"), without the punctuation around.
_WORD = re.compile(r"[\w.+#/&-]*[\w+#]|&")
_LONGEST = 3  # words in the longest name


@functools.cache
def _owners() -> dict[tuple[str, ...], frozenset[str]]:
    """Each spelling of a member, as its words, and the families it belongs to."""
    owners: dict[tuple[str, ...], set[str]] = {}
    for family, members in FAMILIES.items():
        for member in members:
            for spelling in _spellings(member):
                words = tuple(_WORD.findall(spelling))
                if words:
                    owners.setdefault(words, set()).add(family)
    if max(map(len, owners)) > _LONGEST:
        raise ValueError("a family member is longer than _LONGEST words")
    return {words: frozenset(f) for words, f in owners.items()}


@functools.cache
def _first_words() -> frozenset[str]:
    """The first word of each spelling of a member (``_owners``)."""
    return frozenset(words[0] for words in _owners())


@functools.cache
def _products() -> dict[tuple[str, ...], str]:
    """Each spelling of a product (a member that is not the generic name of a job), as
    its words, and the product it names."""
    found: dict[tuple[str, ...], str] = {}
    for members in _parse(_TABLE).values():
        for member in members:
            for spelling in _spellings(member):
                words = tuple(_WORD.findall(spelling))
                if words:
                    found[words] = member
    return found


def _names(text: str) -> list[tuple[str, ...]]:
    """The names of members ``text`` holds, as their words: the longest name at each
    place, so "React Native" is a mobile stack, not React."""
    owners = _owners()
    firsts = _first_words()
    words = [w.rstrip(".") for w in _WORD.findall(text.lower())]
    found = []
    i = 0
    while i < len(words):
        if words[i] not in firsts:  # no name starts here: most words of a note
            i += 1
            continue
        for n in range(min(_LONGEST, len(words) - i), 0, -1):
            name = tuple(words[i : i + n])
            if name in owners:
                found.append(name)
                i += n
                break
        else:
            i += 1
    return found


@functools.lru_cache(maxsize=1 << 14)
def families_of(text: str) -> frozenset[str]:
    """The families of the technologies ``text`` names, as terms (``family:ci``)."""
    owners = _owners()
    return frozenset(FAMILY + f for name in _names(text) for f in owners[name])


@functools.lru_cache(maxsize=1 << 14)
def members_of(text: str) -> tuple[dict[str, frozenset[str]], frozenset[str]]:
    """The products ``text`` names, by family, and the words that named them; generic
    names of a job ("the database") are no product."""
    owners, products = _owners(), _products()
    found: dict[str, set[str]] = {}
    words: set[str] = set()
    for name in _names(text):
        product = products.get(name)
        if product is None:
            continue
        words.update(name)
        for family in owners[name]:
            found.setdefault(family, set()).add(product)
    return {f: frozenset(p) for f, p in found.items()}, frozenset(words)
