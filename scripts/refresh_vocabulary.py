#!/usr/bin/env python3
"""Regenerate the technology vocabulary and the English word list (``anchors/data/``).

Usage::

    python scripts/refresh_vocabulary.py RANKS [--top 8000] [--out anchors/data]
                                         [--frequencies FILE]

``RANKS`` lists Python distributions by download popularity, in one of two formats:

* a tab-separated file whose header names a ``name`` column and a rank column
  (``rank`` or ``rank_among_15000_most_downloaded``; 1 is the most downloaded); rows with
  an empty rank are ignored; other columns (version, month, summary...) are ignored;
* the public "top packages" JSON (download counts of the last 30 days):
  ``{"rows": [{"project": ..., "download_count": ...}]}`` (rank = position when sorted by
  download count, highest first).

English word frequencies come from the ``wordfreq`` package (a refresh-time tool, never a
runtime dependency of anchormem). ``--frequencies FILE`` replaces it with a tab-separated
``word<TAB>zipf`` file: words missing from it count as frequency 0 (tests use this mode).

It writes two sorted, deterministic files:

* ``technologies.tsv``: one technology a line (the curated systems by name, then the
  packages by rank: the loader's order of precedence when two claim one alias), tab-
  separated columns ``name display kind rank dists imports aliases common_aliases
  footprints mention_tokens``; list columns join their items with ``|`` (empty: none);
* ``english.txt``: the ordinary English words, one a line, sorted.

Curated knowledge (systems, import-name exceptions, prose aliases) lives in this file: edit
it here, re-run the script, commit the data.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

# Zipf frequency (log10 of occurrences per billion words) at or above which a word is an
# ordinary English word (the generated english.txt): includes "unverified" (2.7),
# "middleware" (2.6), "namespace" (2.5).
ENGLISH_THRESHOLD = 2.5
# Zipf frequency at or above which an alias is a *common* word: it names the technology in
# prose only in a technology context. celery 3.3, django 3.1, sentry 3.1, git 3.4 stay
# below; handler 3.5, stripe 3.5, falcon 3.7, python 3.8, mock 3.9, click 4.8 are above.
COMMON_THRESHOLD = 3.5

SEP = "|"
_WORD = re.compile(r"[a-z]{2,}\Z")
_LETTERS_AND_SPACES = re.compile(r"[a-z]+( [a-z]+)*\Z")
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*\Z")

# Format, protocol and generic programming words that name packages (yaml, json...) but in
# prose mean the format: always common, never a mention token.
GENERIC_TECH_WORDS = frozenset(
    str.split(
        """
    yaml json toml xml html csv http https markdown regex sql jwt ssh ftp sftp smtp dns ldap
    grpc graphql websocket websockets oauth oauthlib async asyncio decorator cli api rest
    orm cache mock test tests lint typing types docs ini cron utc unicode
    """
    )
)
# Between ENGLISH_THRESHOLD and COMMON_THRESHOLD a word is ordinary English unless it names
# a famous technology: a curated system, or a package among the FAMOUS_RANK most downloaded
# (celery, django, pandas, flask, docker, git...; but "queries", "config", "ailment" name
# obscure packages and stay common words). These famous names are common words all the same:
ORDINARY_NAMES = frozenset(
    str.split(
        """
    cryptography referencing textual proto comm deprecated datasets installer invoke
    overrides inflection modal retry realtime schema boolean daemon parse watchdog axiom
    pendulum billiard weasel pathos agate graphene lark thrift patsy twine alabaster wasabi
    pox locket pooch material constructs prettier render renovate packer jest cypress sonar
    anaconda mamba caddy storybook timescale supervisor temporal railway rollup telegram
    discord bandit node
    """
    )
)
FAMOUS_RANK = 1000
# Aliases that wordfreq rates frequent but that in prose are (nearly) always the technology.
NOT_COMMON = frozenset({"google cloud", "google cloud platform", "amazon web services", "aws"})


def normalize_dist(name: str) -> str:
    """PEP 503 normalised distribution name."""
    return re.sub(r"[-_.]+", "-", name).lower()


# ---------------------------------------------------------------- import names of packages

# Distributions whose import name(s) the default rule (``-`` and ``.`` become ``_``) gets
# wrong. "dist:import,import"; an empty right side: nothing importable (stubs, binaries).
_IMPORT_EXCEPTIONS = """
beautifulsoup4:bs4 pillow:PIL scikit-learn:sklearn scikit-image:skimage
scikit-optimize:skopt scikit-build:skbuild opencv-python:cv2 opencv-python-headless:cv2
opencv-contrib-python:cv2 opencv-contrib-python-headless:cv2 pyyaml:yaml
python-dateutil:dateutil python-dotenv:dotenv pyjwt:jwt attrs:attr,attrs
protobuf:google.protobuf sentry-sdk:sentry_sdk psycopg2-binary:psycopg2
psycopg-binary:psycopg psycopg-c:psycopg pymongo:pymongo,bson,gridfs
markdown-it-py:markdown_it msgpack-python:msgpack pyzmq:zmq pycryptodome:Crypto
pycryptodomex:Cryptodome mysqlclient:MySQLdb gitpython:git pymupdf:fitz,pymupdf
google-api-python-client:googleapiclient google-auth:google.auth
google-api-core:google.api_core googleapis-common-protos:google.api,google.rpc,google.type
google-resumable-media:google.resumable_media grpc-google-iam-v1:google.iam.v1
google-cloud-core:google.cloud google-cloud-secret-manager:google.cloud.secretmanager
google-cloud-resource-manager:google.cloud.resourcemanager
google-cloud-aiplatform:google.cloud.aiplatform,vertexai google-cloud-audit-log:google.cloud.audit
google-cloud-os-login:google.cloud.oslogin google-generativeai:google.generativeai
google-genai:google.genai google-pasta:pasta proto-plus:proto grpcio:grpc
grpcio-tools:grpc_tools grpcio-status:grpc_status grpcio-health-checking:grpc_health
grpcio-reflection:grpc_reflection pyopenssl:OpenSSL python-multipart:multipart,python_multipart
python-jose:jose python-json-logger:pythonjsonlogger python-http-client:python_http_client
python-levenshtein:Levenshtein levenshtein:Levenshtein websocket-client:websocket
dnspython:dns pyserial:serial pyusb:usb pysocks:socks
pywin32:win32api,win32con,win32com,pythoncom,pywintypes pywin32-ctypes:win32ctypes
pywinpty:winpty pyinstaller:PyInstaller pyinstaller-hooks-contrib:_pyinstaller_hooks_contrib
pyqt5:PyQt5 pyqt6:PyQt6 pyside2:PySide2 pyside6:PySide6 pyqt5-sip:PyQt5.sip pyqt5-qt5:
pyqt6-qt6: pygobject:gi pycairo:cairo pyobjc-core:objc pyopengl:OpenGL pywavelets:pywt
pyhamcrest:hamcrest pynacl:nacl pygithub:github py-cpuinfo:cpuinfo gputil:GPUtil
nvidia-ml-py:pynvml faiss-cpu:faiss faiss-gpu:faiss tensorflow-cpu:tensorflow
tensorflow-gpu:tensorflow tensorflow-intel:tensorflow tensorflow-macos:tensorflow
pdfminer-six:pdfminer pypdf2:PyPDF2 python-docx:docx python-pptx:pptx
mysql-connector-python:mysql.connector snowflake-connector-python:snowflake.connector
snowflake-sqlalchemy:snowflake.sqlalchemy snowflake-snowpark-python:snowflake.snowpark
cx-oracle:cx_Oracle kafka-python:kafka paho-mqtt:paho.mqtt redis-py-cluster:rediscluster
python-memcached:memcache opensearch-py:opensearchpy cassandra-driver:cassandra
slackclient:slack discord-py:discord python-telegram-bot:telegram
atlassian-python-api:atlassian hubspot-api-client:hubspot
launchdarkly-server-sdk:ldclient elastic-apm:elasticapm splunk-sdk:splunklib
python-consul:consul ansible-core:ansible apache-airflow:airflow auth0-python:auth0
python-keycloak:keycloak ipython:IPython cython:Cython fonttools:fontTools
netcdf4:netCDF4 gdal:osgeo wxpython:wx argon2-cffi:argon2
argon2-cffi-bindings:_argon2_cffi_bindings python-gnupg:gnupg python-ldap:ldap
python-socketio:socketio python-engineio:engineio tortoise-orm:tortoise
djangorestframework:rest_framework djangorestframework-simplejwt:rest_framework_simplejwt
strawberry-graphql:strawberry graphql-core:graphql factory-boy:factory vcrpy:vcr
python-box:box python-decouple:decouple hydra-core:hydra ruamel-yaml:ruamel.yaml
ruamel-yaml-clib:_ruamel_yaml zope-interface:zope.interface zope-event:zope.event
zope-deprecation:zope.deprecation pyyaml-env-tag:yaml_env_tag pymdown-extensions:pymdownx
mkdocs-material:material linkify-it-py:linkify_it uc-micro-py:uc_micro pytest-xdist:xdist
absl-py:absl antlr4-python3-runtime:antlr4 lark-parser:lark pyelftools:elftools
python-magic:magic python-snappy:snappy earthengine-api:ee pyshp:shapefile
python-barcode:barcode fpdf2:fpdf tabula-py:tabula camelot-py:camelot odfpy:odf
pywinrm:winrm pysmb:smb pykerberos:kerberos pyspnego:spnego pyhumps:humps
python-xlib:Xlib python-slugify:slugify setuptools:setuptools,pkg_resources
future:future,past flake8-bugbear:bugbear django-storages:storages django-environ:environ
django-filter:django_filters django-cors-headers:corsheaders
django-debug-toolbar:debug_toolbar django-timezone-field:timezone_field
django-crispy-forms:crispy_forms django-allauth:allauth django-model-utils:model_utils
django-import-export:import_export django-phonenumber-field:phonenumber_field
django-oauth-toolkit:oauth2_provider django-simple-history:simple_history
django-guardian:guardian django-polymorphic:polymorphic django-mptt:mptt
django-taggit:taggit django-ckeditor:ckeditor django-anymail:anymail django-silk:silk
django-js-asset:js_asset django-constance:constance django-health-check:health_check
django-csp:csp django-cacheops:cacheops django-reversion:reversion
django-compressor:compressor django-widget-tweaks:widget_tweaks django-formtools:formtools
django-localflavor:localflavor django-money:djmoney django-picklefield:picklefield
django-axes:axes django-waffle:waffle django-admin-interface:admin_interface
django-colorfield:colorfield django-stubs: django-stubs-ext:django_stubs_ext
boto3-stubs: botocore-stubs: types-boto3: mypy-boto3: awscli:awscli
nats-py:nats pymilvus:pymilvus qdrant-client:qdrant_client weaviate-client:weaviate
pinecone-client:pinecone clickhouse-connect:clickhouse_connect
datadog-api-client:datadog_api_client prometheus-client:prometheus_client
firebase-admin:firebase_admin slack-sdk:slack_sdk slack-bolt:slack_bolt
simple-salesforce:simple_salesforce mailchimp-marketing:mailchimp_marketing
plaid-python:plaid shopifyapi:shopify opsgenie-sdk:opsgenie_sdk zenpy:zenpy
python-digitalocean:digitalocean honeycomb-beeline:beeline databricks-sdk:databricks.sdk
databricks-sql-connector:databricks.sql databricks-connect:databricks.connect,pyspark
databricks-cli:databricks_cli sqlalchemy-redshift:sqlalchemy_redshift
redshift-connector:redshift_connector python-gitlab:gitlab python-jenkins:jenkins
clickhouse-driver:clickhouse_driver influxdb-client:influxdb_client
temporalio:temporalio pyngrok:pyngrok aws-lambda-powertools:aws_lambda_powertools
aws-cdk-lib:aws_cdk aws-xray-sdk:aws_xray_sdk pdpyras:pdpyras
azure-storage-file-datalake:azure.storage.filedatalake
azure-storage-file-share:azure.storage.fileshare
opentelemetry-api:opentelemetry opentelemetry-semantic-conventions:opentelemetry.semconv
opentelemetry-propagator-aws-xray:opentelemetry.propagators.aws
polars-lts-cpu:polars dask-expr:dask_expr email-validator:email_validator
scikit-build-core:scikit_build_core pyarrow-hotfix:pyarrow_hotfix
beautifulsoup:BeautifulSoup pyproject-api:pyproject_api hatch-vcs:hatch_vcs
hatch-fancy-pypi-readme:hatch_fancy_pypi_readme meson-python:mesonpy pdm-backend:pdm.backend
poetry-core:poetry.core poetry-plugin-export:poetry_plugin_export flit-core:flit_core
jupyter-core:jupyter_core jupyter-client:jupyter_client jupyter-server:jupyter_server
pytest-runner: py-spy: google:googlesearch datadog-checks-base:datadog_checks.base
apache-airflow-core:airflow docker-compose:compose
apache-airflow-task-sdk:airflow.sdk apache-airflow-client:airflow_client
ruff:ruff uv:uv cmake:cmake ninja:ninja zxing-cpp:zxingcpp
pypiwin32:win32api,win32con,pythoncom,pywintypes microsoft-kiota-abstractions:kiota_abstractions
microsoft-kiota-http:kiota_http microsoft-kiota-authentication-azure:kiota_authentication_azure
"""


def _parse_exceptions(text: str) -> dict[str, tuple[str, ...]]:
    table: dict[str, tuple[str, ...]] = {}
    for item in text.split():
        dist, _, imports = item.partition(":")
        table[normalize_dist(dist)] = tuple(i for i in imports.split(",") if i)
    return table


IMPORT_EXCEPTIONS: dict[str, tuple[str, ...]] = _parse_exceptions(_IMPORT_EXCEPTIONS)

# Namespace families: a dist-name prefix and the dotted import package its rest goes under.
_NAMESPACES = (
    ("apache-airflow-providers-", "airflow.providers.", "."),
    ("google-cloud-", "google.cloud.", "_"),
    ("azure-", "azure.", "."),
    ("opentelemetry-instrumentation-", "opentelemetry.instrumentation.", "_"),
    ("opentelemetry-", "opentelemetry.", "."),
    ("sphinxcontrib-", "sphinxcontrib.", "_"),
    ("backports-", "backports.", "_"),
    ("jaraco-", "jaraco.", "_"),
    ("zope-", "zope.", "_"),
    ("repoze-", "repoze.", "_"),
    ("pyannote-", "pyannote.", "_"),
)


def import_names(dist: str) -> tuple[str, ...]:
    """The top-level import name(s) of a (normalised) distribution: curated exceptions,
    namespace families, then the default rule."""
    if dist in IMPORT_EXCEPTIONS:
        return IMPORT_EXCEPTIONS[dist]
    if dist.startswith("types-") or dist.endswith("-stubs"):
        return ()  # type stubs: nothing importable
    for prefix, package, joiner in _NAMESPACES:
        if dist.startswith(prefix) and len(dist) > len(prefix):
            return (package + dist[len(prefix) :].replace("-", joiner),)
    if dist.startswith("nvidia-"):  # nvidia-cublas-cu12 -> nvidia.cublas
        rest = re.sub(r"-cu\d+$", "", dist[len("nvidia-") :])
        return ("nvidia." + rest.replace("-", "_"),)
    base = dist
    if base.startswith("python-"):
        base = base[len("python-") :]
    base = re.sub(r"-(python|py|binary)$", "", base)
    name = base.replace("-", "_")
    return (name,) if _IDENT.match(name) else ()


# Extra prose names of packages, beyond their dist and import names.
PACKAGE_ALIASES: dict[str, tuple[str, ...]] = {
    "jinja2": ("jinja",),
    "beautifulsoup4": ("beautiful soup", "beautifulsoup", "bs4"),
    "scikit-learn": ("sklearn", "scikit learn"),
    "scikit-image": ("skimage",),
    "pillow": ("pil",),
    "pyyaml": ("py yaml",),
    "opencv-python": ("opencv",),
    "numpy": ("np",),
    "sqlalchemy": ("sql alchemy",),
    "djangorestframework": ("django rest framework", "drf"),
    "pytorch-lightning": ("pytorch lightning",),
    "torch": ("pytorch",),
    "tensorflow": ("tf",),
    "msgpack": ("messagepack",),
    "python-dateutil": ("dateutil",),
    "pydantic-settings": ("pydantic settings",),
    "typing-extensions": ("typing_extensions",),
    "factory-boy": ("factory boy", "factoryboy"),
    "huggingface-hub": ("hugging face hub",),
    "llama-index": ("llamaindex", "llama index"),
    "langchain": ("lang chain",),
}

# Display names of well-known packages (the rest display as their dist name).
PACKAGE_DISPLAY = {
    "numpy": "NumPy", "pandas": "pandas", "pyyaml": "PyYAML", "sqlalchemy": "SQLAlchemy",
    "fastapi": "FastAPI", "pydantic": "Pydantic", "flask": "Flask", "jinja2": "Jinja2",
    "pillow": "Pillow", "scikit-learn": "scikit-learn", "scipy": "SciPy", "torch": "PyTorch",
    "tensorflow": "TensorFlow", "beautifulsoup4": "Beautiful Soup", "pyjwt": "PyJWT",
    "gitpython": "GitPython", "pytest-cov": "pytest-cov", "matplotlib": "Matplotlib",
    "requests": "Requests", "httpx": "HTTPX", "aiohttp": "aiohttp", "starlette": "Starlette",
    "uvicorn": "Uvicorn", "gunicorn": "Gunicorn", "falcon": "Falcon", "tornado": "Tornado",
    "djangorestframework": "Django REST framework", "boto3": "Boto3", "pymysql": "PyMySQL",
    "ipython": "IPython", "cython": "Cython", "lxml": "lxml", "marshmallow": "marshmallow",
}

# ---------------------------------------------------------------- systems (hand-curated)


@dataclass
class System:
    name: str
    display: str
    aliases: tuple[str, ...] = ()
    dists: tuple[str, ...] = ()
    imports: tuple[str, ...] = ()
    footprints: tuple[str, ...] = ()
    tokens: tuple[str, ...] = ()
    dist_prefixes: tuple[str, ...] = ()
    rank: int | None = None
    common: set[str] = field(default_factory=set)


def S(
    name: str,
    display: str,
    aliases: str = "",
    dists: str = "",
    imports: str = "",
    footprints: str = "",
    tokens: str = "",
    prefixes: str = "",
) -> System:
    """One system: ``aliases`` separated by ``|`` (they may hold spaces), the other lists by
    whitespace. A token starting with ``!`` is kept even though it is a common word."""
    return System(
        name,
        display,
        tuple(a.strip() for a in aliases.split("|") if a.strip()),
        tuple(normalize_dist(d) for d in dists.split()),
        tuple(imports.split()),
        tuple(footprints.split()),
        tuple(tokens.split()),
        tuple(prefixes.split()),
    )


SYSTEMS: tuple[System, ...] = (
    # infrastructure as code, deployment, hosting
    S("pulumi", "Pulumi", "pulumi", "pulumi", "", "Pulumi.yaml Pulumi.yml Pulumi.*.yaml",
      "pulumi", "pulumi-"),
    S("terraform", "Terraform", "terraform", "", "",
      "*.tf **/*.tf *.tfvars **/*.tfvars .terraform.lock.hcl", "terraform tfvars"),
    S("opentofu", "OpenTofu", "opentofu", "", "", "", "opentofu"),
    S("aws-cdk", "AWS CDK", "aws cdk|cdk", "aws-cdk-lib constructs", "", "cdk.json", "cdk",
      "aws-cdk-"),
    S("cloudformation", "AWS CloudFormation", "cloudformation|aws cloudformation", "cfn-lint",
      "", "", "cloudformation"),
    S("serverless", "Serverless Framework", "serverless framework", "", "",
      "serverless.yml serverless.yaml", ""),
    S("aws-sam", "AWS SAM", "aws sam", "aws-sam-cli aws-sam-translator", "", "samconfig.toml",
      "samconfig"),
    S("docker", "Docker", "docker|docker compose|docker-compose|dockerfile", "docker", "",
      "Dockerfile **/Dockerfile *.Dockerfile **/*.Dockerfile Dockerfile.* "
      "docker-compose.yml docker-compose.yaml docker-compose.*.yml compose.yaml compose.yml "
      ".dockerignore", "docker dockerfile docker-compose"),
    S("podman", "Podman", "podman", "podman", "", "Containerfile **/Containerfile", "podman"),
    S("kubernetes", "Kubernetes", "kubernetes|k8s", "kubernetes kubernetes-asyncio", "", "",
      "kubernetes k8s kubectl"),
    S("helm", "Helm", "helm|helm chart|helm charts", "", "",
      "Chart.yaml **/Chart.yaml helmfile.yaml", "helmfile"),
    S("kustomize", "Kustomize", "kustomize", "", "", "kustomization.yaml **/kustomization.yaml",
      "kustomize"),
    S("ansible", "Ansible", "ansible", "ansible ansible-core ansible-lint", "",
      "ansible.cfg **/ansible.cfg", "ansible"),
    S("vagrant", "Vagrant", "vagrant", "", "", "Vagrantfile", "vagrant vagrantfile"),
    S("packer", "HashiCorp Packer", "packer|hashicorp packer", "", "", "*.pkr.hcl **/*.pkr.hcl",
      ""),
    S("nginx", "nginx", "nginx", "", "", "nginx.conf **/nginx.conf", "nginx"),
    S("apache-httpd", "Apache HTTP Server", "apache httpd|httpd|apache http server", "", "",
      ".htaccess **/.htaccess httpd.conf", "httpd htaccess"),
    S("caddy", "Caddy", "caddy", "", "", "Caddyfile **/Caddyfile", "caddyfile"),
    S("traefik", "Traefik", "traefik", "", "", "traefik.yml traefik.toml traefik.yaml",
      "traefik"),
    S("haproxy", "HAProxy", "haproxy", "", "", "haproxy.cfg **/haproxy.cfg", "haproxy"),
    S("heroku", "Heroku", "heroku", "", "", "Procfile", "heroku"),
    S("vercel", "Vercel", "vercel", "", "", "vercel.json", "vercel"),
    S("netlify", "Netlify", "netlify", "", "", "netlify.toml", "netlify"),
    S("fly-io", "Fly.io", "fly.io|fly io|flyio", "", "", "fly.toml", "flyctl fly.io"),
    S("railway", "Railway", "railway", "", "", "railway.json railway.toml", ""),
    S("render", "Render", "render.com", "", "", "render.yaml", ""),
    S("google-app-engine", "Google App Engine", "app engine|google app engine|appengine", "",
      "", "app.yaml", "appengine"),
    S("elastic-beanstalk", "AWS Elastic Beanstalk", "elastic beanstalk|aws elastic beanstalk",
      "awsebcli", "", ".ebextensions/* .elasticbeanstalk/*", "beanstalk ebextensions"),
    S("aws", "Amazon Web Services", "aws|amazon web services",
      "boto3 botocore aiobotocore aioboto3 boto awscli awswrangler aws-requests-auth", "",
      "", "aws boto3 botocore", "mypy-boto3-"),
    S("s3", "Amazon S3", "s3|amazon s3|aws s3", "s3fs s3transfer", "", "", "s3"),
    S("sqs", "Amazon SQS", "sqs|amazon sqs|aws sqs", "", "", "", "sqs"),
    S("sns", "Amazon SNS", "sns|amazon sns|aws sns", "", "", "", "sns"),
    S("aws-lambda", "AWS Lambda", "aws lambda|amazon lambda", "aws-lambda-powertools", "", "",
      "lambda_handler"),
    S("dynamodb", "Amazon DynamoDB", "dynamodb|dynamo db|amazon dynamodb", "pynamodb", "", "",
      "dynamodb pynamodb"),
    S("kinesis", "Amazon Kinesis", "kinesis|amazon kinesis", "", "", "", "kinesis"),
    S("cloudwatch", "Amazon CloudWatch", "cloudwatch|amazon cloudwatch", "watchtower", "", "",
      "cloudwatch"),
    S("cognito", "Amazon Cognito", "cognito|aws cognito|amazon cognito", "pycognito", "", "",
      "cognito"),
    S("amazon-ses", "Amazon SES", "ses|amazon ses|aws ses", "", "", "", ""),
    S("google-cloud", "Google Cloud", "google cloud|gcp|google cloud platform", "", "", "",
      "gcp gcloud", "google-cloud-"),
    S("bigquery", "BigQuery", "bigquery|google bigquery", "google-cloud-bigquery pandas-gbq "
      "google-cloud-bigquery-storage", "", "", "bigquery"),
    S("pubsub", "Google Cloud Pub/Sub", "pub/sub|pubsub|google pub/sub|cloud pub/sub",
      "google-cloud-pubsub", "", "", "pubsub"),
    S("gcs", "Google Cloud Storage", "gcs|google cloud storage", "google-cloud-storage gcsfs",
      "", "", "gcs"),
    S("firebase", "Firebase", "firebase", "firebase-admin pyrebase4", "",
      "firebase.json .firebaserc", "firebase"),
    S("firestore", "Cloud Firestore", "firestore|cloud firestore", "google-cloud-firestore", "",
      "firestore.rules", "firestore"),
    S("azure", "Microsoft Azure", "azure|microsoft azure", "msrestazure adal", "", "", "azure",
      "azure-"),
    S("azure-pipelines", "Azure Pipelines", "azure pipelines|azure devops", "", "",
      "azure-pipelines.yml azure-pipelines.yaml .azure-pipelines/*", ""),
    S("cloudflare", "Cloudflare", "cloudflare|cloudflare workers", "cloudflare", "",
      "wrangler.toml wrangler.json wrangler.jsonc", "cloudflare wrangler"),
    S("digitalocean", "DigitalOcean", "digitalocean|digital ocean", "python-digitalocean", "",
      "", "digitalocean"),
    # CI/CD, repository services, quality
    S("github-actions", "GitHub Actions", "github actions|gh actions", "", "",
      ".github/workflows/*", ""),
    S("github", "GitHub", "github", "pygithub", "", ".github/*", "pygithub"),
    S("gitlab", "GitLab", "gitlab", "python-gitlab", "", "", "gitlab"),
    S("gitlab-ci", "GitLab CI", "gitlab ci|gitlab-ci|gitlab ci/cd|gitlab pipelines", "", "",
      ".gitlab-ci.yml .gitlab-ci/*", "gitlab-ci"),
    S("bitbucket-pipelines", "Bitbucket Pipelines", "bitbucket pipelines", "", "",
      "bitbucket-pipelines.yml", ""),
    S("bitbucket", "Bitbucket", "bitbucket", "", "", "", "bitbucket"),
    S("travis-ci", "Travis CI", "travis ci|travis|travis-ci", "", "", ".travis.yml", "travis"),
    S("circleci", "CircleCI", "circleci|circle ci", "", "", ".circleci/*", "circleci"),
    S("jenkins", "Jenkins", "jenkins", "python-jenkins", "", "Jenkinsfile **/Jenkinsfile",
      "jenkins jenkinsfile"),
    S("buildkite", "Buildkite", "buildkite", "", "", ".buildkite/*", "buildkite"),
    S("drone-ci", "Drone CI", "drone ci", "", "", ".drone.yml", ""),
    S("appveyor", "AppVeyor", "appveyor", "", "", "appveyor.yml .appveyor.yml", "appveyor"),
    S("argo-cd", "Argo CD", "argo cd|argocd", "", "", "", "argocd"),
    S("tox", "tox", "tox", "tox", "", "tox.ini", "tox"),
    S("nox", "nox", "nox", "nox", "", "noxfile.py", "nox noxfile"),
    S("pre-commit", "pre-commit", "pre-commit|precommit|pre commit", "pre-commit", "",
      ".pre-commit-config.yaml .pre-commit-config.yml .pre-commit-hooks.yaml", "pre-commit"),
    S("read-the-docs", "Read the Docs", "read the docs|readthedocs|rtd", "", "",
      ".readthedocs.yaml .readthedocs.yml readthedocs.yml readthedocs.yaml", "readthedocs"),
    S("codecov", "Codecov", "codecov", "codecov", "", "codecov.yml .codecov.yml codecov.yaml",
      "codecov"),
    S("coveralls", "Coveralls", "coveralls", "coveralls", "", ".coveralls.yml", "coveralls"),
    S("dependabot", "Dependabot", "dependabot", "", "",
      ".github/dependabot.yml .github/dependabot.yaml", "dependabot"),
    S("renovate", "Renovate", "renovate|renovate bot|renovatebot", "", "",
      "renovate.json renovate.json5 .renovaterc .renovaterc.json .github/renovate.json "
      ".github/renovate.json5", "renovatebot"),
    S("sonarqube", "SonarQube", "sonarqube|sonarcloud|sonar", "", "",
      "sonar-project.properties", "sonarqube sonarcloud"),
    S("snyk", "Snyk", "snyk", "", "", ".snyk", "snyk"),
    S("pytest", "pytest", "pytest|py.test", "pytest", "pytest _pytest",
      "pytest.ini conftest.py **/conftest.py", "pytest"),
    S("coverage", "Coverage.py", "coverage.py|coverage", "coverage", "", ".coveragerc",
      "coveragerc"),
    S("ruff", "Ruff", "ruff", "ruff", "", "ruff.toml .ruff.toml", "ruff"),
    S("mypy", "mypy", "mypy", "mypy", "", "mypy.ini .mypy.ini", "mypy"),
    S("flake8", "Flake8", "flake8", "flake8", "", ".flake8", "flake8"),
    S("pylint", "Pylint", "pylint", "pylint", "", ".pylintrc pylintrc", "pylint"),
    S("isort", "isort", "isort", "isort", "", ".isort.cfg", "isort"),
    S("bandit", "Bandit", "bandit", "bandit", "", ".bandit", ""),
    S("editorconfig", "EditorConfig", "editorconfig", "", "", ".editorconfig", "editorconfig"),
    S("devcontainer", "Dev Containers", "devcontainer|dev container|dev containers", "", "",
      ".devcontainer/* .devcontainer.json", "devcontainer"),
    S("gitpod", "Gitpod", "gitpod", "", "", ".gitpod.yml", "gitpod"),
    # more hosted services agents name in notes (storage, APIs, analytics, flags, search)
    S("backblaze-b2", "Backblaze B2", "backblaze|backblaze b2", "b2sdk", "", "", "backblaze b2sdk"),
    S("wasabi", "Wasabi", "wasabi cloud|wasabi storage", "", "", "", ""),
    S("fastly", "Fastly", "fastly", "fastly", "", "fastly.toml", "fastly"),
    S("akamai", "Akamai", "akamai", "", "", "", "akamai"),
    S("linode", "Linode", "linode|akamai cloud", "linode-api4", "", "", "linode"),
    S("hetzner", "Hetzner", "hetzner", "hcloud", "", "", "hetzner hcloud"),
    S("vultr", "Vultr", "vultr", "", "", "", "vultr"),
    S("apollo-graphql", "Apollo GraphQL", "apollo|apollo graphql|apollo gateway|apollo server|"
      "apollo federation", "", "", "apollo.config.js", "apollographql"),
    S("hasura", "Hasura", "hasura", "", "", "", "hasura"),
    S("segment", "Segment", "segment analytics|twilio segment",
      "analytics-python segment-analytics-python",
      "", "", "segmentio"),
    S("amplitude", "Amplitude", "amplitude analytics", "amplitude-analytics", "", "",
      "amplitude_analytics"),
    S("google-analytics", "Google Analytics", "google analytics|ga4", "", "", "",
      "googletagmanager gtag"),
    S("matomo", "Matomo", "matomo|piwik", "", "", "", "matomo piwik"),
    S("plausible", "Plausible Analytics", "plausible analytics", "", "", "", "plausible.io"),
    S("hotjar", "Hotjar", "hotjar", "", "", "", "hotjar"),
    S("fullstory", "FullStory", "fullstory", "fullstory", "", "", "fullstory"),
    S("intercom", "Intercom", "intercom", "python-intercom", "", "", "intercom"),
    S("freshdesk", "Freshdesk", "freshdesk", "", "", "", "freshdesk"),
    S("mandrill", "Mandrill", "mandrill", "mandrill", "", "", "mandrill mandrillapp"),
    S("sparkpost", "SparkPost", "sparkpost", "sparkpost", "", "", "sparkpost"),
    S("mailjet", "Mailjet", "mailjet", "mailjet-rest", "", "", "mailjet"),
    S("brevo", "Brevo", "brevo|sendinblue", "sib-api-v3-sdk brevo-python", "", "",
      "brevo sendinblue"),
    S("mattermost", "Mattermost", "mattermost", "mattermostdriver", "", "", "mattermost"),
    S("zoom", "Zoom", "zoom api|zoom meetings", "", "", "", "zoomus"),
    S("calendly", "Calendly", "calendly", "", "", "", "calendly"),
    S("docusign", "DocuSign", "docusign", "docusign-esign", "", "", "docusign"),
    S("square", "Square", "square payments|square api", "squareup", "", "", "squareup"),
    S("razorpay", "Razorpay", "razorpay", "razorpay", "", "", "razorpay"),
    S("mollie", "Mollie", "mollie", "mollie-api-python", "", "", "mollie"),
    S("paddle", "Paddle", "paddle billing", "", "", "", "paddle.com"),
    S("chargebee", "Chargebee", "chargebee", "chargebee", "", "", "chargebee"),
    S("recurly", "Recurly", "recurly", "recurly", "", "", "recurly"),
    S("klarna", "Klarna", "klarna", "", "", "", "klarna"),
    S("onesignal", "OneSignal", "onesignal", "onesignal-sdk", "", "", "onesignal"),
    S("firebase-cloud-messaging", "Firebase Cloud Messaging", "fcm|firebase cloud messaging",
      "pyfcm", "", "", "pyfcm"),
    S("ably", "Ably", "ably", "ably", "", "", "ably"),
    S("pubnub", "PubNub", "pubnub", "pubnub", "", "", "pubnub"),
    S("mapbox", "Mapbox", "mapbox", "mapbox", "", "", "mapbox"),
    S("meilisearch", "Meilisearch", "meilisearch", "meilisearch", "", "", "meilisearch"),
    S("typesense", "Typesense", "typesense", "typesense", "", "", "typesense"),
    S("optimizely", "Optimizely", "optimizely", "optimizely-sdk", "", "", "optimizely"),
    S("split-io", "Split", "split.io", "splitio-client", "", "", "splitio"),
    S("flagsmith", "Flagsmith", "flagsmith", "flagsmith", "", "", "flagsmith"),
    S("unleash", "Unleash", "unleash feature flags|unleash", "unleashclient", "", "",
      "unleashclient getunleash"),
    S("growthbook", "GrowthBook", "growthbook", "growthbook", "", "", "growthbook"),
    S("configcat", "ConfigCat", "configcat", "configcat-client", "", "", "configcat"),
    S("statsig", "Statsig", "statsig", "statsig", "", "", "statsig"),
    S("neon", "Neon", "neon postgres|neon database", "", "", "", "neon.tech"),
    S("planetscale", "PlanetScale", "planetscale", "", "", "", "planetscale psdb"),
    S("upstash", "Upstash", "upstash", "upstash-redis", "", "", "upstash"),
    S("aiven", "Aiven", "aiven", "", "", "", "aiven"),
    S("cosmosdb", "Azure Cosmos DB", "cosmos db|cosmosdb|azure cosmos db", "azure-cosmos",
      "azure.cosmos", "", "cosmosdb"),
    S("bigtable", "Cloud Bigtable", "bigtable", "google-cloud-bigtable", "google.cloud.bigtable",
      "", "bigtable"),
    S("spanner", "Cloud Spanner", "spanner|cloud spanner", "google-cloud-spanner",
      "google.cloud.spanner", "", "spanner"),
    S("couchdb", "CouchDB", "couchdb", "couchdb", "", "", "couchdb"),
    S("couchbase", "Couchbase", "couchbase", "couchbase", "", "", "couchbase"),
    S("scylladb", "ScyllaDB", "scylla|scylladb", "scylla-driver", "", "", "scylla scylladb"),
    S("arangodb", "ArangoDB", "arangodb", "python-arango", "arango", "", "arangodb"),
    S("etcd", "etcd", "etcd", "etcd3", "", "", "etcd etcd3"),
    S("zookeeper", "ZooKeeper", "zookeeper", "kazoo", "", "", "zookeeper kazoo"),
    S("pulsar", "Apache Pulsar", "pulsar|apache pulsar", "pulsar-client", "pulsar", "",
      "pulsar"),
    S("activemq", "ActiveMQ", "activemq", "", "", "", "activemq"),
    S("eventbridge", "Amazon EventBridge", "eventbridge", "", "", "", "eventbridge"),
    S("step-functions", "AWS Step Functions", "step functions|aws step functions", "", "", "",
      "stepfunctions states:startexecution"),
    S("ecs", "Amazon ECS", "ecs|fargate|aws fargate|amazon ecs", "", "",
      "task-definition.json ecs-params.yml", "fargate"),
    S("eks", "Amazon EKS", "eks|amazon eks", "", "", "", "eksctl"),
    S("cloud-run", "Cloud Run", "cloud run|google cloud run", "", "", "", "run.googleapis.com"),
    S("azure-functions", "Azure Functions", "azure functions", "azure-functions",
      "azure.functions", "host.json function.json", "azure-functions"),
    S("openshift", "OpenShift", "openshift", "openshift", "", "", "openshift"),
    S("nomad", "HashiCorp Nomad", "nomad|hashicorp nomad", "python-nomad", "nomad", "*.nomad",
      "nomad"),
    S("rancher", "Rancher", "rancher", "", "", "", "rancher"),
    S("argo-workflows", "Argo Workflows", "argo workflows", "", "", "", "argoproj"),
    S("spinnaker", "Spinnaker", "spinnaker", "", "", "", "spinnaker"),
    S("teamcity", "TeamCity", "teamcity", "", "", ".teamcity/*", "teamcity"),
    S("bamboo", "Bamboo", "atlassian bamboo", "", "", "bamboo-specs/*", "bamboo-specs"),
    S("octopus-deploy", "Octopus Deploy", "octopus deploy", "", "", "", "octopusdeploy"),
    S("artifactory", "JFrog Artifactory", "artifactory|jfrog", "", "", "", "artifactory jfrog"),
    S("dynatrace", "Dynatrace", "dynatrace", "", "", "", "dynatrace"),
    S("appdynamics", "AppDynamics", "appdynamics", "appdynamics", "", "", "appdynamics"),
    S("honeybadger", "Honeybadger", "honeybadger", "honeybadger", "", "", "honeybadger"),
    S("airbrake", "Airbrake", "airbrake", "pybrake", "", "", "airbrake pybrake"),
    S("raygun", "Raygun", "raygun", "raygun4py", "", "", "raygun"),
    S("papertrail", "Papertrail", "papertrail", "", "", "", "papertrail papertrailapp"),
    S("loggly", "Loggly", "loggly", "loggly-python-handler", "", "", "loggly"),
    S("sumo-logic", "Sumo Logic", "sumo logic|sumologic", "", "", "", "sumologic"),
    S("loki", "Grafana Loki", "loki|grafana loki", "python-logging-loki", "", "", "loki"),
    S("fluentd", "Fluentd", "fluentd|fluent bit|fluent-bit", "fluent-logger", "fluent", "",
      "fluentd fluent-bit"),
    S("pingdom", "Pingdom", "pingdom", "", "", "", "pingdom"),
    S("uptimerobot", "UptimeRobot", "uptimerobot|uptime robot", "", "", "", "uptimerobot"),
    S("statuspage", "Statuspage", "statuspage|atlassian statuspage", "", "", "", "statuspage"),
    S("zabbix", "Zabbix", "zabbix", "", "", "", "zabbix"),
    S("nagios", "Nagios", "nagios", "", "", "", "nagios"),
    S("victoriametrics", "VictoriaMetrics", "victoriametrics", "", "", "", "victoriametrics"),
    S("clerk", "Clerk", "clerk auth|clerk.com", "clerk-backend-api", "", "", "clerk.com"),
    S("workos", "WorkOS", "workos", "workos", "", "", "workos"),
    S("stytch", "Stytch", "stytch", "stytch", "", "", "stytch"),
    S("onelogin", "OneLogin", "onelogin", "onelogin", "", "", "onelogin"),
    S("jumpcloud", "JumpCloud", "jumpcloud", "", "", "", "jumpcloud"),
    S("doppler", "Doppler", "doppler", "", "", "doppler.yaml", "doppler"),
    S("1password", "1Password", "1password", "onepassword", "", "", "1password"),
    S("aws-secrets-manager", "AWS Secrets Manager", "secrets manager|aws secrets manager", "",
      "", "", "secretsmanager"),
    S("expo", "Expo", "expo", "", "", "app.json eas.json", "expo"),
    S("fastlane", "fastlane", "fastlane", "", "", "fastlane/Fastfile Fastfile", "fastlane"),
    S("bitrise", "Bitrise", "bitrise", "", "", "bitrise.yml", "bitrise"),
    S("crashlytics", "Crashlytics", "crashlytics|firebase crashlytics", "", "", "",
      "crashlytics"),
    S("testflight", "TestFlight", "testflight", "", "", "", "testflight"),
    # observability
    S("datadog", "Datadog", "datadog", "datadog ddtrace datadog-api-client datadog-checks-base",
      "", "", "datadog ddtrace", "datadog-"),
    S("sentry", "Sentry", "sentry", "sentry-sdk raven", "", ".sentryclirc", "sentry sentry_sdk"),
    S("new-relic", "New Relic", "new relic|newrelic", "newrelic", "", "newrelic.ini",
      "newrelic"),
    S("pagerduty", "PagerDuty", "pagerduty|pager duty", "pdpyras pagerduty", "", "",
      "pagerduty pdpyras"),
    S("opsgenie", "Opsgenie", "opsgenie", "opsgenie-sdk", "", "", "opsgenie"),
    S("launchdarkly", "LaunchDarkly", "launchdarkly|launch darkly", "launchdarkly-server-sdk",
      "", "", "launchdarkly ldclient"),
    S("prometheus", "Prometheus", "prometheus", "prometheus-client prometheus-flask-exporter "
      "prometheus-fastapi-instrumentator", "", "prometheus.yml", "prometheus prometheus_client"),
    S("grafana", "Grafana", "grafana", "grafana-client", "", "", "grafana"),
    S("opentelemetry", "OpenTelemetry", "opentelemetry|otel|open telemetry", "", "", "",
      "opentelemetry otel", "opentelemetry-"),
    S("jaeger", "Jaeger", "jaeger", "jaeger-client", "", "", "jaeger"),
    S("honeycomb", "Honeycomb", "honeycomb", "honeycomb-beeline", "", "", "honeycomb"),
    S("elasticsearch", "Elasticsearch", "elasticsearch|elastic search",
      "elasticsearch elasticsearch-dsl elastic-transport", "", "", "elasticsearch"),
    S("opensearch", "OpenSearch", "opensearch", "opensearch-py", "", "", "opensearch"),
    S("kibana", "Kibana", "kibana", "", "", "kibana.yml", "kibana"),
    S("logstash", "Logstash", "logstash", "python-logstash", "", "logstash.conf", "logstash"),
    S("splunk", "Splunk", "splunk", "splunk-sdk", "", "", "splunk splunklib"),
    S("statsd", "StatsD", "statsd", "statsd", "", "", "statsd"),
    S("rollbar", "Rollbar", "rollbar", "rollbar", "", "", "rollbar"),
    S("bugsnag", "Bugsnag", "bugsnag", "bugsnag", "", "", "bugsnag"),
    S("elastic-apm", "Elastic APM", "elastic apm", "elastic-apm", "", "", "elasticapm"),
    # auth providers, secrets
    S("auth0", "Auth0", "auth0", "auth0-python", "", "", "auth0"),
    S("okta", "Okta", "okta", "okta", "", "", "okta"),
    S("keycloak", "Keycloak", "keycloak", "python-keycloak", "", "", "keycloak"),
    S("supabase", "Supabase", "supabase", "supabase", "", "supabase/config.toml", "supabase"),
    S("hashicorp-vault", "HashiCorp Vault", "hashicorp vault|vault", "hvac", "", "",
      "hashicorp hvac"),
    S("consul", "HashiCorp Consul", "consul|hashicorp consul", "python-consul py-consul", "",
      "", ""),
    S("sops", "SOPS", "sops", "", "", ".sops.yaml", "sops"),
    S("lets-encrypt", "Let's Encrypt", "let's encrypt|letsencrypt|certbot", "certbot", "", "",
      "letsencrypt certbot"),
    # payments, e-mail, SMS, chat, SaaS APIs
    S("stripe", "Stripe", "stripe", "stripe", "", "", "!stripe"),
    S("braintree", "Braintree", "braintree", "braintree", "", "", "braintree"),
    S("paypal", "PayPal", "paypal", "paypalrestsdk paypal-checkout-serversdk", "", "",
      "paypal paypalrestsdk"),
    S("adyen", "Adyen", "adyen", "adyen", "", "", "adyen"),
    S("plaid", "Plaid", "plaid", "plaid-python", "", "", ""),
    S("shopify", "Shopify", "shopify", "shopifyapi", "", "", "shopify"),
    S("sendgrid", "SendGrid", "sendgrid|send grid", "sendgrid", "", "", "sendgrid"),
    S("mailgun", "Mailgun", "mailgun", "", "", "", "mailgun"),
    S("mailchimp", "Mailchimp", "mailchimp|mandrill", "mailchimp-marketing mailchimp3", "",
      "", "mailchimp mandrill"),
    S("postmark", "Postmark", "postmark|postmarkapp", "postmarker", "", "", "postmarkapp"),
    S("twilio", "Twilio", "twilio", "twilio", "", "", "twilio"),
    S("vonage", "Vonage", "vonage|nexmo", "vonage nexmo", "", "", "vonage nexmo"),
    S("slack", "Slack", "slack", "slack-sdk slackclient slack-bolt", "", "",
      "slack_sdk slack_bolt slackclient"),
    S("discord", "Discord", "discord", "discord-py", "", "", "discord"),
    S("telegram", "Telegram", "telegram", "python-telegram-bot aiogram pytelegrambotapi", "",
      "", ""),
    S("microsoft-teams", "Microsoft Teams", "microsoft teams|ms teams", "", "", "", ""),
    S("zendesk", "Zendesk", "zendesk", "zenpy", "", "", "zendesk zenpy"),
    S("jira", "Jira", "jira", "jira", "", "", "jira"),
    S("confluence", "Confluence", "confluence|atlassian confluence", "atlassian-python-api", "",
      "", "atlassian"),
    S("salesforce", "Salesforce", "salesforce", "simple-salesforce", "", "", "salesforce"),
    S("hubspot", "HubSpot", "hubspot", "hubspot-api-client", "", "", "hubspot"),
    S("mixpanel", "Mixpanel", "mixpanel", "mixpanel", "", "", "mixpanel"),
    S("posthog", "PostHog", "posthog", "posthog", "", "", "posthog"),
    S("algolia", "Algolia", "algolia", "algoliasearch", "", "", "algolia algoliasearch"),
    S("cloudinary", "Cloudinary", "cloudinary", "cloudinary", "", "", "cloudinary"),
    S("pusher", "Pusher", "pusher", "pusher", "", "", "pusher"),
    S("openai", "OpenAI", "openai|open ai", "openai", "", "", "openai"),
    S("anthropic", "Anthropic", "anthropic", "anthropic", "", "", "anthropic"),
    S("hugging-face", "Hugging Face", "hugging face|huggingface", "huggingface-hub", "", "",
      "huggingface huggingface_hub"),
    S("weights-and-biases", "Weights & Biases", "wandb|weights & biases|weights and biases",
      "wandb", "", "", "wandb"),
    S("google-maps", "Google Maps", "google maps", "googlemaps", "", "", "googlemaps"),
    S("ngrok", "ngrok", "ngrok", "pyngrok", "", "", "ngrok pyngrok"),
    S("localstack", "LocalStack", "localstack", "localstack", "", "", "localstack"),
    S("browserstack", "BrowserStack", "browserstack", "", "", "browserstack.yml",
      "browserstack"),
    # databases, stores, queues, data platforms
    S("postgresql", "PostgreSQL", "postgresql|postgres|psql",
      "psycopg2 psycopg2-binary psycopg psycopg-binary psycopg-c psycopg-pool asyncpg pg8000",
      "", "", "postgresql postgres psycopg2 psycopg asyncpg pg8000"),
    S("mysql", "MySQL", "mysql", "mysqlclient pymysql mysql-connector-python aiomysql", "", "",
      "mysql pymysql mysqldb mysqlclient aiomysql"),
    S("mariadb", "MariaDB", "mariadb", "mariadb", "", "", "mariadb"),
    S("sqlite", "SQLite", "sqlite|sqlite3", "aiosqlite", "sqlite3", "", "sqlite sqlite3"),
    S("mongodb", "MongoDB", "mongodb|mongo", "pymongo motor mongoengine", "", "",
      "mongodb mongo pymongo mongoengine"),
    S("redis", "Redis", "redis", "redis hiredis aioredis redis-py-cluster fakeredis", "", "",
      "redis aioredis"),
    S("valkey", "Valkey", "valkey", "valkey", "", "", "valkey"),
    S("memcached", "Memcached", "memcached|memcache", "pymemcache python-memcached pylibmc",
      "", "", "memcached memcache pymemcache pylibmc"),
    S("cassandra", "Apache Cassandra", "cassandra|apache cassandra", "cassandra-driver", "", "",
      "cassandra"),
    S("neo4j", "Neo4j", "neo4j", "neo4j py2neo", "", "", "neo4j py2neo"),
    S("cockroachdb", "CockroachDB", "cockroachdb|cockroach db", "sqlalchemy-cockroachdb", "",
      "", "cockroachdb"),
    S("snowflake", "Snowflake", "snowflake",
      "snowflake-connector-python snowflake-sqlalchemy snowflake-snowpark-python", "", "",
      "snowflake.connector snowflake-connector-python"),
    S("clickhouse", "ClickHouse", "clickhouse|click house", "clickhouse-connect clickhouse-driver",
      "", "", "clickhouse"),
    S("duckdb", "DuckDB", "duckdb|duck db", "duckdb", "", "", "duckdb"),
    S("influxdb", "InfluxDB", "influxdb|influx db", "influxdb influxdb-client", "", "",
      "influxdb"),
    S("timescaledb", "TimescaleDB", "timescaledb|timescale", "", "", "", "timescaledb"),
    S("oracle-database", "Oracle Database", "oracle database|oracle db", "cx-oracle oracledb",
      "", "", "cx_oracle oracledb"),
    S("sql-server", "Microsoft SQL Server", "sql server|mssql|microsoft sql server", "pymssql",
      "", "", "mssql pymssql"),
    S("redshift", "Amazon Redshift", "redshift|amazon redshift",
      "redshift-connector sqlalchemy-redshift", "", "", "redshift"),
    S("databricks", "Databricks", "databricks", "", "", "", "databricks", "databricks-"),
    S("spark", "Apache Spark", "spark|apache spark|pyspark", "pyspark", "", "", "pyspark"),
    S("qdrant", "Qdrant", "qdrant", "qdrant-client", "", "", "qdrant"),
    S("weaviate", "Weaviate", "weaviate", "weaviate-client", "", "", "weaviate"),
    S("milvus", "Milvus", "milvus", "pymilvus", "", "", "milvus pymilvus"),
    S("chroma", "Chroma", "chroma|chromadb", "chromadb", "", "", "chromadb"),
    S("pinecone", "Pinecone", "pinecone", "pinecone-client pinecone", "", "", "pinecone"),
    S("minio", "MinIO", "minio", "minio", "", "", "minio"),
    S("rabbitmq", "RabbitMQ", "rabbitmq|rabbit mq", "pika aio-pika", "", "",
      "rabbitmq pika"),
    S("kafka", "Apache Kafka", "kafka|apache kafka", "kafka-python confluent-kafka aiokafka",
      "", "", "kafka confluent_kafka aiokafka"),
    S("nats", "NATS", "nats", "nats-py", "", "", "nats"),
    S("zeromq", "ZeroMQ", "zeromq|zmq|0mq", "pyzmq", "", "", "zeromq pyzmq zmq"),
    S("celery", "Celery", "celery", "celery", "", "celeryconfig.py", "celery"),
    S("temporal", "Temporal", "temporal", "temporalio", "", "", "temporalio"),
    S("airflow", "Apache Airflow", "airflow|apache airflow", "apache-airflow", "",
      "airflow.cfg", "airflow", "apache-airflow-"),
    S("prefect", "Prefect", "prefect", "prefect", "", "", "prefect"),
    S("dagster", "Dagster", "dagster", "dagster", "", "", "dagster", "dagster-"),
    S("dvc", "DVC", "dvc", "dvc", "", "dvc.yaml dvc.lock .dvc/*", "dvc"),
    S("jupyter", "Jupyter", "jupyter|jupyter notebook|jupyterlab|ipynb", "jupyter jupyterlab "
      "notebook", "", "*.ipynb **/*.ipynb", "jupyter ipynb", "jupyter-"),
    S("django", "Django", "django", "django", "", "manage.py **/manage.py", "django"),
    S("alembic", "Alembic", "alembic", "alembic", "", "alembic.ini **/alembic.ini", "alembic"),
    # build, packaging, docs, front-end tooling
    S("poetry", "Poetry", "poetry|python poetry", "poetry poetry-core poetry-plugin-export", "",
      "poetry.lock poetry.toml", ""),
    S("pipenv", "Pipenv", "pipenv", "pipenv", "", "Pipfile Pipfile.lock", "pipenv pipfile"),
    S("conda", "conda", "conda|anaconda|miniconda|mamba|micromamba", "", "",
      "environment.yml environment.yaml conda-lock.yml meta.yaml", "conda anaconda miniconda "
      "micromamba"),
    S("uv", "uv", "uv", "uv", "", "uv.lock uv.toml", ""),
    S("hatch", "Hatch", "hatch|hatchling", "hatch hatchling hatch-vcs", "", "hatch.toml",
      "hatchling"),
    S("pdm", "PDM", "pdm", "pdm pdm-backend", "", "pdm.lock .pdm-python", "pdm"),
    S("flit", "Flit", "flit", "flit flit-core", "", "", "flit"),
    S("pip-tools", "pip-tools", "pip-tools|pip tools|pip-compile", "pip-tools", "",
      "requirements.in **/requirements.in", "pip-compile"),
    S("sphinx", "Sphinx", "sphinx", "sphinx", "", "docs/conf.py doc/conf.py", "sphinx",
      "sphinx- sphinxcontrib-"),
    S("mkdocs", "MkDocs", "mkdocs|mkdocs material", "mkdocs", "", "mkdocs.yml mkdocs.yaml",
      "mkdocs", "mkdocs-"),
    S("docusaurus", "Docusaurus", "docusaurus", "", "",
      "docusaurus.config.js docusaurus.config.ts", "docusaurus"),
    S("doxygen", "Doxygen", "doxygen", "", "", "Doxyfile", "doxygen"),
    S("make", "Make", "make|gnu make|makefile", "", "",
      "Makefile makefile GNUmakefile **/Makefile *.mk", "makefile"),
    S("cmake", "CMake", "cmake", "cmake", "", "CMakeLists.txt **/CMakeLists.txt", "cmake"),
    S("bazel", "Bazel", "bazel", "", "",
      "BUILD.bazel **/BUILD.bazel WORKSPACE WORKSPACE.bazel MODULE.bazel .bazelrc", "bazel"),
    S("meson", "Meson", "meson", "meson meson-python", "", "meson.build", "meson"),
    S("scons", "SCons", "scons", "scons", "", "SConstruct", "scons"),
    S("gradle", "Gradle", "gradle", "", "", "build.gradle build.gradle.kts settings.gradle",
      "gradle"),
    S("maven", "Maven", "maven|apache maven", "", "", "pom.xml", "maven"),
    S("webpack", "webpack", "webpack", "", "", "webpack.config.js webpack.config.ts "
      "webpack.*.js", "webpack"),
    S("vite", "Vite", "vite|vitejs", "", "", "vite.config.js vite.config.ts vite.config.mjs",
      "vite"),
    S("rollup", "Rollup", "rollup|rollup.js", "", "", "rollup.config.js rollup.config.mjs", ""),
    S("esbuild", "esbuild", "esbuild", "", "", "", "esbuild"),
    S("typescript", "TypeScript", "typescript", "", "", "tsconfig.json", "typescript"),
    S("npm", "npm", "npm", "", "", "package.json package-lock.json .npmrc", "npm"),
    S("yarn", "Yarn", "yarn", "", "", "yarn.lock .yarnrc .yarnrc.yml", ""),
    S("pnpm", "pnpm", "pnpm", "", "", "pnpm-lock.yaml pnpm-workspace.yaml", "pnpm"),
    S("nodejs", "Node.js", "node.js|nodejs|node", "", "", ".nvmrc .node-version", "nodejs"),
    S("deno", "Deno", "deno", "", "", "deno.json deno.jsonc", "deno"),
    S("bun", "Bun", "bun", "", "", "bun.lockb bun.lock bunfig.toml", ""),
    S("eslint", "ESLint", "eslint", "", "", ".eslintrc .eslintrc.* eslint.config.js "
      "eslint.config.mjs", "eslint"),
    S("prettier", "Prettier", "prettier", "", "", ".prettierrc .prettierrc.* prettier.config.js",
      ""),
    S("tailwind", "Tailwind CSS", "tailwind|tailwindcss|tailwind css", "", "",
      "tailwind.config.js tailwind.config.ts", "tailwindcss"),
    S("nextjs", "Next.js", "next.js|nextjs", "", "", "next.config.js next.config.mjs "
      "next.config.ts", "nextjs"),
    S("storybook", "Storybook", "storybook", "", "", ".storybook/*", "storybook"),
    S("jest", "Jest", "jest", "", "", "jest.config.js jest.config.ts", ""),
    S("cypress", "Cypress", "cypress", "", "", "cypress.config.js cypress.config.ts cypress.json",
      ""),
    S("supervisor", "Supervisor", "supervisord|supervisor", "supervisor", "", "supervisord.conf",
      "supervisord"),
    S("systemd", "systemd", "systemd", "", "", "", "systemd systemctl"),
)

# ---------------------------------------------------------------- frequencies


Freq = Callable[[str], float]


def wordfreq_source() -> tuple[Freq, list[str]]:
    """wordfreq's English Zipf frequency and its English word list (most frequent first)."""
    try:
        from wordfreq import iter_wordlist, zipf_frequency
    except ImportError:
        sys.exit("refresh_vocabulary: wordfreq is not installed (pip install wordfreq), "
                 "or pass --frequencies FILE")

    def freq(text: str) -> float:
        return float(zipf_frequency(text, "en"))

    return freq, list(iter_wordlist("en"))


def file_source(path: Path) -> tuple[Freq, list[str]]:
    """Frequencies from a ``word<TAB>zipf`` file; phrases combine like wordfreq's (the
    reciprocal of the sum of reciprocal frequencies)."""
    table: dict[str, float] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            word, zipf = line.split("\t")
            table[word.lower()] = float(zipf)

    def freq(text: str) -> float:
        words = re.findall(r"[a-z0-9']+", text.lower())
        if not words:
            return 0.0
        inverse = 0.0
        for word in words:
            zipf = table.get(word, 0.0)
            if zipf <= 0:
                return 0.0
            inverse += 1.0 / 10**zipf
        return round(math.log10(1.0 / inverse), 2)

    return freq, sorted(table, key=lambda w: (-table[w], w))


# ---------------------------------------------------------------- ranks


def read_ranks(path: Path) -> dict[str, int]:
    """Normalised dist name -> rank (1 = most downloaded)."""
    text = path.read_text(encoding="utf-8")
    ranks: dict[str, int] = {}
    if text.lstrip().startswith("{"):
        rows = json.loads(text)["rows"]
        ordered = sorted(rows, key=lambda r: (-int(r["download_count"]), r["project"]))
        for position, row in enumerate(ordered, start=1):
            ranks.setdefault(normalize_dist(row["project"]), position)
        return ranks
    lines = text.splitlines()
    header = lines[0].split("\t")
    name_col = header.index("name")
    rank_col = next(
        i for i, h in enumerate(header) if h in ("rank", "rank_among_15000_most_downloaded")
    )
    for line in lines[1:]:
        cols = line.split("\t")
        if len(cols) > rank_col and cols[rank_col].strip():
            dist = normalize_dist(cols[name_col])
            rank = int(cols[rank_col])
            if dist not in ranks or rank < ranks[dist]:
                ranks[dist] = rank
    return ranks


# ---------------------------------------------------------------- build


@dataclass
class Row:
    name: str
    display: str
    kind: str
    rank: int | None
    dists: list[str]
    imports: list[str]
    aliases: list[str]
    common: list[str]
    footprints: list[str]
    tokens: list[str]

    def line(self) -> str:
        """The file's line: columns that can be derived are left out (see ``HEADER``)."""
        derived = {*self.dists, *(i.lower() for i in self.imports)}
        cols = [
            self.name,
            "" if self.display == self.name else self.display,
            self.kind,
            "" if self.rank is None else str(self.rank),
            "" if self.dists == [self.name] and self.kind == "package" else SEP.join(self.dists),
            SEP.join(self.imports),
            SEP.join(a for a in self.aliases if a not in derived),
            *(SEP.join(v) for v in (self.common, self.footprints, self.tokens)),
        ]
        for col in cols:
            if "\t" in col or "\n" in col:
                raise ValueError(f"tab or newline in {col!r}")
        return "\t".join(cols)


def _unique(items: Iterable[str]) -> list[str]:
    seen: dict[str, None] = {}
    for item in items:
        if item:
            seen.setdefault(item, None)
    return list(seen)


def build(ranks: dict[str, int], top: int, freq: Freq) -> list[Row]:
    def is_common(alias: str, famous: bool) -> bool:
        """``famous``: a curated system or a package among the FAMOUS_RANK most downloaded,
        whose name in the English list's band below COMMON_THRESHOLD still names it."""
        if alias in GENERIC_TECH_WORDS or alias in ORDINARY_NAMES:
            return True
        if alias in NOT_COMMON or not _LETTERS_AND_SPACES.match(alias):
            return False  # digits, dots, hyphens: a distinctive spelling
        if len(alias) <= 2:
            return True  # "py", "fs", "uv": too short to name anything outside a context
        zipf = freq(alias)
        return zipf >= COMMON_THRESHOLD or (zipf >= ENGLISH_THRESHOLD and not famous)

    def keep_token(token: str, famous: bool) -> bool:
        return len(token) >= 2 and not is_common(token, famous)

    chosen = sorted((d for d in ranks if ranks[d] <= top), key=lambda d: (ranks[d], d))
    owner: dict[str, str] = {}  # dist -> system name
    for system in SYSTEMS:
        for dist in system.dists:
            if dist in owner:
                raise ValueError(f"{dist} claimed by {owner[dist]} and {system.name}")
            owner[dist] = system.name
    for system in SYSTEMS:  # names, aliases and prefixes claim what explicit lists left
        names = {normalize_dist(a) for a in (system.name, *system.aliases)}
        for dist in chosen:
            if dist not in owner and (
                dist in names
                or any(dist.startswith(p) for p in system.dist_prefixes)
                or any(normalize_dist(m) in names for m in import_names(dist))
            ):
                owner[dist] = system.name
    claimed: dict[str, list[str]] = {s.name: [] for s in SYSTEMS}
    for dist in chosen:
        if dist in owner:
            claimed[owner[dist]].append(dist)

    rows: list[Row] = []
    for system in SYSTEMS:
        dists = _unique([*system.dists, *claimed[system.name]])
        imports = _unique([*system.imports, *(i for d in dists for i in import_names(d))])
        aliases = _unique([a.lower() for a in system.aliases] + dists
                          + [i.lower() for i in imports])
        tokens = _unique(
            t.lstrip("!") for t in system.tokens if t.startswith("!") or keep_token(t, True)
        )
        rank_values = [ranks[d] for d in dists if d in ranks]
        rows.append(Row(
            system.name, system.display, "system", min(rank_values) if rank_values else None,
            dists, imports, aliases, [a for a in aliases if is_common(a, True)],
            list(system.footprints), tokens,
        ))
    for dist in chosen:
        if dist in owner:
            continue
        imports = list(import_names(dist))
        aliases = _unique([dist, *(i.lower() for i in imports), *PACKAGE_ALIASES.get(dist, ())])
        famous = ranks[dist] <= FAMOUS_RANK
        tokens = _unique(
            t
            for t in [dist, *(i.lower() for i in imports)]
            if len(t) >= 3 and keep_token(t, famous)
        )
        rows.append(Row(
            dist, PACKAGE_DISPLAY.get(dist, dist), "package", ranks[dist], [dist], imports,
            aliases, [a for a in aliases if is_common(a, famous)], [], tokens,
        ))
    names = [r.name for r in rows]
    if len(names) != len(set(names)):
        dupes = sorted({n for n in names if names.count(n) > 1})
        raise ValueError(f"duplicate technology names: {dupes}")
    return rows


def english_words(freq: Freq, words: Iterable[str]) -> list[str]:
    return sorted({w for w in words if _WORD.match(w) and freq(w) >= ENGLISH_THRESHOLD})


# Empty display: the name; empty dists of a package: its name; aliases: those listed, then
# the dists, then the lower-cased imports.
HEADER = ("# name\tdisplay\tkind\trank\tdists\timports\tmore_aliases\tcommon_aliases"
          "\tfootprints\tmention_tokens")


def write(rows: list[Row], english: list[str], out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    systems = sorted((r for r in rows if r.kind == "system"), key=lambda r: r.name)
    packages = sorted((r for r in rows if r.kind == "package"), key=lambda r: (r.rank, r.name))
    text = "\n".join([HEADER, *(r.line() for r in systems + packages)]) + "\n"
    (out / "technologies.tsv").write_text(text, encoding="utf-8", newline="\n")
    (out / "english.txt").write_text("\n".join(english) + "\n", encoding="utf-8", newline="\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("ranks", type=Path, help="download ranks: TSV or top-packages JSON")
    parser.add_argument("--top", type=int, default=8000, help="how many top packages")
    parser.add_argument("--out", type=Path,
                        default=Path(__file__).resolve().parent.parent / "anchors" / "data")
    parser.add_argument("--frequencies", type=Path,
                        help="word<TAB>zipf file to use instead of wordfreq")
    args = parser.parse_args(argv)
    freq, wordlist = file_source(args.frequencies) if args.frequencies else wordfreq_source()
    rows = build(read_ranks(args.ranks), args.top, freq)
    english = english_words(freq, wordlist)
    write(rows, english, args.out)
    packages = sum(r.kind == "package" for r in rows)
    print(f"refresh_vocabulary: {packages} packages, {len(rows) - packages} systems, "
          f"{sum(len(r.aliases) for r in rows)} aliases, {len(english)} English words "
          f"-> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
