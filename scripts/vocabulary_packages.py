"""What the vocabulary knows of Python packages beyond their download rank (curated).

The import names a distribution's name does not give by the default rule (``-`` and ``.``
become ``_``), namespace families (``google-cloud-*``, ``azure-*``...), extra prose names
and display names. ``scripts/refresh_vocabulary.py`` reads these tables: edit them here,
re-run the script, commit the data.
"""

from __future__ import annotations

import re

_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*\Z")


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
