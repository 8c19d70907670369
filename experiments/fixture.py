"""The experiment's own repository: a small, realistic Python service with a history.

``build_fixture(root)`` writes *shopfront* (an online-shop backend: FastAPI, SQLAlchemy,
Redis, httpx, boto3, Jinja) into ``root`` as a git repository of six commits in which
things are added, renamed, rewritten and removed, and tags four of them ``v1`` .. ``v4``
(``v4`` is HEAD). The default fact set (``experiments/data/facts.jsonl``) refers to its
paths, symbols, dependencies and environment variables, and to the tags as the commits
at which temporal and drift memories were written.

History:
  v1  initial service: billing over ``requests``, signed tokens with ``itsdangerous``,
      marshmallow schemas in ``shop/api/views.py``, an in-process ``MemoryCache``, stdlib
      logging, CSV export in ``shop/reports/csv_export.py``, ``DB_URL``/``SECRET_KEY``.
  v2  Redis cache (``MemoryCache`` removed), order events and a job queue on Redis, SMS
      receipts through Twilio, pydantic schemas, ``views.py`` renamed ``routes.py``.
  v3  billing on ``httpx`` with ``tenacity`` retries (``requests`` dropped), structlog,
      a SQLite FTS product-search index, ``DB_URL`` renamed ``DATABASE_URL``.
  --  tiered discounts: ``apply_discount`` rewritten, the cap lowered from 50% to 30%.
  --  SMS and Twilio dropped; tokens become JWTs (``pyjwt``), ``SECRET_KEY`` -> ``JWT_SECRET``.
  v4  receipts rendered from a Jinja template (``send_receipt`` rewritten), CSV export
      renamed ``shop/reports/export.py``, ``Order.total`` renamed ``Order.grand_total``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from experiments.scratch import ScratchRepo

__all__ = ["FIXTURE_TAGS", "build_fixture"]

FIXTURE_TAGS = ("v1", "v2", "v3", "v4")

IDENTITY = ("Shopfront Developer", "dev@shopfront.example")


# -- files ---------------------------------------------------------------------------------

_PYPROJECT = """\
[project]
name = "shopfront"
version = "{version}"
description = "Backend of the shopfront online shop"
requires-python = ">=3.11"
dependencies = [
{deps}]

[project.optional-dependencies]
dev = [
    "pytest>=8",
    "pytest-asyncio>=0.23",
    "ruff>=0.4",
    "{mock}",
]

[project.scripts]
shopfront = "shop.cli:main"

[tool.ruff]
line-length = 100
"""


def _pyproject(version: str, deps: list[str], mock: str) -> str:
    lines = "".join(f'    "{d}",\n' for d in deps)
    return _PYPROJECT.format(version=version, deps=lines, mock=mock)


_DEPS_V1 = [
    "fastapi>=0.110",
    "uvicorn[standard]>=0.29",
    "sqlalchemy>=2.0",
    "psycopg[binary]>=3.1",
    "requests>=2.31",
    "marshmallow>=3.21",
    "itsdangerous>=2.1",
    "boto3>=1.34",
    "click>=8.1",
]
_DEPS_V2 = [
    "fastapi>=0.110",
    "uvicorn[standard]>=0.29",
    "sqlalchemy>=2.0",
    "psycopg[binary]>=3.1",
    "requests>=2.31",
    "pydantic>=2.6",
    "itsdangerous>=2.1",
    "redis>=5.0",
    "twilio>=9.0",
    "boto3>=1.34",
    "click>=8.1",
]
_DEPS_V3 = [
    "fastapi>=0.110",
    "uvicorn[standard]>=0.29",
    "sqlalchemy>=2.0",
    "psycopg[binary]>=3.1",
    "httpx>=0.27",
    "tenacity>=8.2",
    "pydantic>=2.6",
    "itsdangerous>=2.1",
    "redis>=5.0",
    "twilio>=9.0",
    "structlog>=24.1",
    "boto3>=1.34",
    "click>=8.1",
]
_DEPS_V4 = [
    "fastapi>=0.110",
    "uvicorn[standard]>=0.29",
    "sqlalchemy>=2.0",
    "psycopg[binary]>=3.1",
    "httpx>=0.27",
    "tenacity>=8.2",
    "pydantic>=2.6",
    "pyjwt>=2.8",
    "redis>=5.0",
    "structlog>=24.1",
    "boto3>=1.34",
    "jinja2>=3.1",
    "click>=8.1",
]

_ENV_V1 = """\
# Copy to .env and fill in.
DB_URL=postgresql+psycopg://shop:shop@localhost:5432/shop
PAYMENT_API_URL=https://payments.example.com/v1
PAYMENT_API_KEY=changeme
SECRET_KEY=changeme
SMTP_HOST=localhost
SMTP_PORT=1025
MAIL_FROM=shop@example.com
S3_BUCKET=shopfront-receipts
LOG_LEVEL=INFO
"""
_ENV_V2 = _ENV_V1 + "REDIS_URL=redis://localhost:6379/0\nTWILIO_ACCOUNT_SID=\nTWILIO_AUTH_TOKEN=\n"
_ENV_V3 = _ENV_V2.replace("DB_URL=", "DATABASE_URL=")
_ENV_V4 = (
    _ENV_V3.replace("SECRET_KEY=", "JWT_SECRET=")
    .replace("TWILIO_ACCOUNT_SID=\n", "")
    .replace("TWILIO_AUTH_TOKEN=\n", "")
)

_README = """\
# shopfront

The backend of the shopfront online shop: a FastAPI service over PostgreSQL.

    pip install -e .[dev]
    shopfront serve --port 8000

Configuration comes from the environment; see `.env.example`.
"""

_CHANGELOG_V4 = """\
# Changelog

## 2.3.0
- Receipts are rendered from a Jinja template.
- The CSV export moved to `shop/reports/export.py`.
- `Order.total` is now `Order.grand_total`.

## 2.2.0
- Auth tokens are JWTs; `SECRET_KEY` is now `JWT_SECRET`.
- SMS receipts were dropped.

## 2.1.0
- Tiered discounts; the discount cap is 30%.

## 2.0.0
- The payment client uses httpx with retries.
- Structured logging.
- Product search.
"""

_CONFIG = """\
\"\"\"Settings, read from the environment once at start-up.\"\"\"

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache


@dataclass(frozen=True)
class Settings:
    database_url: str
    payment_api_url: str
    payment_api_key: str
    s3_bucket: str
{redis_field}    log_level: str = "INFO"


@lru_cache(maxsize=1)
def load_settings() -> Settings:
    return Settings(
        database_url=os.environ["{db_var}"],
        payment_api_url=os.environ["PAYMENT_API_URL"],
        payment_api_key=os.environ["PAYMENT_API_KEY"],
        s3_bucket=os.getenv("S3_BUCKET", "shopfront-receipts"),
{redis_read}        log_level=os.getenv("LOG_LEVEL", "INFO"),
    )
"""


def _config(db_var: str, redis: bool) -> str:
    field = '    redis_url: str = "redis://localhost:6379/0"\n' if redis else ""
    read = (
        '        redis_url=os.getenv("REDIS_URL", "redis://localhost:6379/0"),\n' if redis else ""
    )
    return _CONFIG.format(db_var=db_var, redis_field=field, redis_read=read)


_APP = """\
\"\"\"The FastAPI application factory.\"\"\"

from fastapi import FastAPI

from shop.api.{routes} import router
from shop.config import load_settings
from shop.utils.logging import configure_logging


def create_app() -> FastAPI:
    settings = load_settings()
    configure_logging(settings.log_level)
    app = FastAPI(title="shopfront")
    app.include_router(router, prefix="/api")
    return app
"""

_CLI_V1 = """\
\"\"\"The ``shopfront`` administration command.\"\"\"

import click
import uvicorn

from shop.reports.csv_export import export_orders_csv


@click.group()
def main() -> None:
    \"\"\"shopfront administration.\"\"\"


@main.command()
@click.option("--port", default=8000, show_default=True)
def serve(port: int) -> None:
    \"\"\"Run the API server.\"\"\"
    uvicorn.run("shop.app:create_app", factory=True, host="0.0.0.0", port=port)


@main.command("export-orders")
@click.argument("path")
def export_orders(path: str) -> None:
    \"\"\"Write every order to a CSV file.\"\"\"
    export_orders_csv(path)
"""

_CLI_V3 = (
    _CLI_V1.replace(
        "from shop.reports.csv_export import export_orders_csv\n",
        "from shop.reports.csv_export import export_orders_csv\n"
        "from shop.search.index import rebuild_index\n",
    )
    + """

@main.command()
def reindex() -> None:
    \"\"\"Rebuild the product search index.\"\"\"
    rebuild_index()
"""
)
_CLI_V4 = _CLI_V3.replace("shop.reports.csv_export import", "shop.reports.export import")

_DB_SESSION = """\
\"\"\"The database engine and sessions.\"\"\"

from collections.abc import Iterator
from contextlib import contextmanager

from sqlalchemy import Engine, create_engine
from sqlalchemy.orm import Session, sessionmaker

from shop.config import load_settings

_engine: Engine | None = None


def get_engine() -> Engine:
    global _engine
    if _engine is None:
        _engine = create_engine(load_settings().database_url, pool_pre_ping=True)
    return _engine


@contextmanager
def get_session() -> Iterator[Session]:
    \"\"\"A session that commits on success and rolls back on error.\"\"\"
    session = sessionmaker(bind=get_engine())()
    try:
        yield session
        session.commit()
    except Exception:
        session.rollback()
        raise
    finally:
        session.close()
"""

_DB_MODELS = """\
\"\"\"The relational model.\"\"\"

from datetime import datetime

from sqlalchemy import ForeignKey, String
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


class Base(DeclarativeBase):
    pass


class Customer(Base):
    __tablename__ = "customers"

    id: Mapped[int] = mapped_column(primary_key=True)
    email: Mapped[str] = mapped_column(String(320), unique=True)
    password_hash: Mapped[str] = mapped_column(String(200))
    tier: Mapped[str] = mapped_column(String(20), default="bronze")


class Product(Base):
    __tablename__ = "products"

    id: Mapped[int] = mapped_column(primary_key=True)
    sku: Mapped[str] = mapped_column(String(40), unique=True)
    name: Mapped[str] = mapped_column(String(200))
    price_cents: Mapped[int]
    weight_grams: Mapped[int] = mapped_column(default=0)


class Order(Base):
    __tablename__ = "orders"

    id: Mapped[int] = mapped_column(primary_key=True)
    customer_id: Mapped[int] = mapped_column(ForeignKey("customers.id"))
    status: Mapped[str] = mapped_column(String(20), default="pending")
    created_at: Mapped[datetime] = mapped_column(default=datetime.utcnow)
    charge_id: Mapped[str | None] = mapped_column(String(80), default=None)
    lines: Mapped[list["OrderLine"]] = relationship(back_populates="order")

    def {total}(self) -> int:
        \"\"\"The order's amount in cents, lines included.\"\"\"
        return sum(line.quantity * line.unit_price_cents for line in self.lines)


class OrderLine(Base):
    __tablename__ = "order_lines"

    id: Mapped[int] = mapped_column(primary_key=True)
    order_id: Mapped[int] = mapped_column(ForeignKey("orders.id"))
    product_id: Mapped[int] = mapped_column(ForeignKey("products.id"))
    quantity: Mapped[int]
    unit_price_cents: Mapped[int]
    order: Mapped[Order] = relationship(back_populates="lines")
"""

_DB_MIGRATIONS = """\
\"\"\"Plain SQL migrations, applied in file-name order.\"\"\"

from pathlib import Path

from sqlalchemy import Engine, text

MIGRATIONS = Path(__file__).with_name("sql")


def apply_migrations(engine: Engine) -> list[str]:
    applied = []
    with engine.begin() as conn:
        conn.execute(text("CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY)"))
        done = {row[0] for row in conn.execute(text("SELECT name FROM schema_migrations"))}
        for path in sorted(MIGRATIONS.glob("*.sql")):
            if path.name in done:
                continue
            conn.execute(text(path.read_text()))
            conn.execute(text("INSERT INTO schema_migrations VALUES (:n)"), {"n": path.name})
            applied.append(path.name)
    return applied
"""

_SQL_0001 = """\
CREATE TABLE customers (id SERIAL PRIMARY KEY, email TEXT UNIQUE, password_hash TEXT);
CREATE TABLE products (id SERIAL PRIMARY KEY, sku TEXT UNIQUE, name TEXT, price_cents INT);
CREATE TABLE orders (id SERIAL PRIMARY KEY, customer_id INT REFERENCES customers(id));
"""

_API_VIEWS_V1 = """\
\"\"\"HTTP endpoints.\"\"\"

from fastapi import APIRouter, Depends, HTTPException

from shop.api.deps import current_customer
from shop.api.schemas import OrderIn, OrderSchema
from shop.orders.service import cancel_order, place_order

router = APIRouter()


@router.post("/orders")
def create_order(body: dict, customer_id: int = Depends(current_customer)) -> dict:
    data = OrderIn().load(body)
    order = place_order(customer_id, data["lines"], data.get("coupon"))
    return OrderSchema().dump(order)


@router.delete("/orders/{order_id}")
def delete_order(order_id: int, customer_id: int = Depends(current_customer)) -> dict:
    if not cancel_order(order_id, customer_id):
        raise HTTPException(status_code=404, detail="no such order")
    return {"cancelled": order_id}
"""

_API_ROUTES = """\
\"\"\"HTTP endpoints.\"\"\"

from fastapi import APIRouter, Depends, HTTPException

from shop.api.deps import current_customer
from shop.api.schemas import OrderIn, OrderOut{search_import}
from shop.orders.service import cancel_order, place_order

router = APIRouter()


@router.post("/orders", response_model=OrderOut)
def create_order(body: OrderIn, customer_id: int = Depends(current_customer)) -> OrderOut:
    order = place_order(customer_id, [line.model_dump() for line in body.lines], body.coupon)
    return OrderOut.model_validate(order, from_attributes=True)


@router.delete("/orders/{{order_id}}")
def delete_order(order_id: int, customer_id: int = Depends(current_customer)) -> dict:
    if not cancel_order(order_id, customer_id):
        raise HTTPException(status_code=404, detail="no such order")
    return {{"cancelled": order_id}}
{search_route}"""

_SEARCH_ROUTE = """

@router.get("/search")
def search(q: str) -> list[ProductOut]:
    return [ProductOut(**hit) for hit in search_products(q)]
"""


def _api_routes(search: bool) -> str:
    if not search:
        return _API_ROUTES.format(search_import="", search_route="")
    imports = ", ProductOut\nfrom shop.search.index import search_products"
    return _API_ROUTES.format(search_import=imports, search_route=_SEARCH_ROUTE)


_API_SCHEMAS_V1 = """\
\"\"\"Request and response schemas.\"\"\"

from marshmallow import Schema, fields


class LineIn(Schema):
    product_id = fields.Int(required=True)
    quantity = fields.Int(required=True)


class OrderIn(Schema):
    lines = fields.List(fields.Nested(LineIn), required=True)
    coupon = fields.Str(load_default=None)


class OrderSchema(Schema):
    id = fields.Int()
    status = fields.Str()
"""

_API_SCHEMAS_V2 = """\
\"\"\"Request and response schemas.\"\"\"

from pydantic import BaseModel, Field


class LineIn(BaseModel):
    product_id: int
    quantity: int = Field(gt=0)


class OrderIn(BaseModel):
    lines: list[LineIn]
    coupon: str | None = None


class OrderOut(BaseModel):
    id: int
    status: str


class ProductOut(BaseModel):
    id: int
    sku: str
    name: str
    price_cents: int
"""

_API_DEPS = """\
\"\"\"Request dependencies.\"\"\"

from fastapi import Header, HTTPException

from shop.auth.tokens import verify_token


def current_customer(authorization: str = Header(...)) -> int:
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token:
        raise HTTPException(status_code=401, detail="missing bearer token")
    try:
        return verify_token(token)
    except Exception:
        raise HTTPException(status_code=401, detail="invalid token") from None
"""

_TOKENS_V1 = """\
\"\"\"Signed, time-limited auth tokens.\"\"\"

import os

from itsdangerous import BadSignature, URLSafeTimedSerializer

TOKEN_MAX_AGE = 12 * 3600


def _serializer() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(os.environ["SECRET_KEY"], salt="auth")


def create_token(customer_id: int) -> str:
    return _serializer().dumps({"sub": customer_id})


def verify_token(token: str) -> int:
    try:
        data = _serializer().loads(token, max_age=TOKEN_MAX_AGE)
    except BadSignature as exc:
        raise ValueError("bad token") from exc
    return int(data["sub"])
"""

_TOKENS_V4 = """\
\"\"\"Auth tokens: JWTs signed with HS256.\"\"\"

import os
from datetime import UTC, datetime, timedelta

import jwt

ALGORITHM = "HS256"
TOKEN_TTL = timedelta(hours=12)


def _secret() -> str:
    return os.environ["JWT_SECRET"]


def create_token(customer_id: int) -> str:
    now = datetime.now(UTC)
    payload = {"sub": str(customer_id), "iat": now, "exp": now + TOKEN_TTL}
    return jwt.encode(payload, _secret(), algorithm=ALGORITHM)


def verify_token(token: str) -> int:
    payload = jwt.decode(token, _secret(), algorithms=[ALGORITHM])
    return int(payload["sub"])
"""

_PASSWORDS = """\
\"\"\"Password hashing with PBKDF2 from the standard library.\"\"\"

import hashlib
import hmac
import secrets

ITERATIONS = 600_000


def hash_password(password: str) -> str:
    salt = secrets.token_bytes(16)
    digest = hashlib.pbkdf2_hmac("sha256", password.encode(), salt, ITERATIONS)
    return f"{salt.hex()}${digest.hex()}"


def check_password(password: str, stored: str) -> bool:
    salt_hex, _, digest_hex = stored.partition("$")
    digest = hashlib.pbkdf2_hmac("sha256", password.encode(), bytes.fromhex(salt_hex), ITERATIONS)
    return hmac.compare_digest(digest.hex(), digest_hex)
"""

_BILLING_CLIENT_V1 = """\
\"\"\"The payment provider's HTTP API.\"\"\"

import requests

from shop.config import load_settings


class PaymentClient:
    def __init__(self) -> None:
        settings = load_settings()
        self._base = settings.payment_api_url
        self._session = requests.Session()
        self._session.headers["Authorization"] = f"Bearer {settings.payment_api_key}"

    def charge(self, customer_id: int, amount_cents: int, currency: str = "EUR") -> str:
        body = {"customer": customer_id, "amount": amount_cents, "currency": currency}
        response = self._session.post(f"{self._base}/charges", json=body, timeout=10)
        response.raise_for_status()
        return response.json()["id"]

    def refund(self, charge_id: str, amount_cents: int) -> str:
        body = {"charge": charge_id, "amount": amount_cents}
        response = self._session.post(f"{self._base}/refunds", json=body, timeout=10)
        response.raise_for_status()
        return response.json()["id"]
"""

_BILLING_CLIENT_V3 = """\
\"\"\"The payment provider's HTTP API.\"\"\"

import httpx

from shop.config import load_settings
from shop.utils.retry import with_retries


class PaymentClient:
    def __init__(self) -> None:
        settings = load_settings()
        self._http = httpx.Client(
            base_url=settings.payment_api_url,
            timeout=10.0,
            headers={"Authorization": f"Bearer {settings.payment_api_key}"},
        )

    @with_retries(attempts=3)
    def charge(self, customer_id: int, amount_cents: int, currency: str = "EUR") -> str:
        body = {"customer": customer_id, "amount": amount_cents, "currency": currency}
        response = self._http.post("/charges", json=body)
        response.raise_for_status()
        return response.json()["id"]

    @with_retries(attempts=3)
    def refund(self, charge_id: str, amount_cents: int) -> str:
        response = self._http.post("/refunds", json={"charge": charge_id, "amount": amount_cents})
        response.raise_for_status()
        return response.json()["id"]
"""

_INVOICES = """\
\"\"\"Invoices: numbers, lines and totals.\"\"\"

from decimal import Decimal

from shop.utils.money import format_money, from_cents

VAT_RATE = Decimal("0.20")


def invoice_number(order_id: int, year: int) -> str:
    return f"INV-{year}-{order_id:06d}"


def build_invoice(order_id: int, year: int, lines: list[dict]) -> dict:
    net = sum(from_cents(line["quantity"] * line["unit_price_cents"]) for line in lines)
    vat = (net * VAT_RATE).quantize(Decimal("0.01"))
    return {
        "number": invoice_number(order_id, year),
        "net": format_money(net),
        "vat": format_money(vat),
        "gross": format_money(net + vat),
    }
"""

_REFUNDS = """\
\"\"\"Refunds: give the money back and mark the order.\"\"\"

{log_import}
from shop.billing.client import PaymentClient
from shop.db.models import Order
from shop.db.session import get_session

{log_setup}


def refund_order(order_id: int) -> str:
    with get_session() as session:
        order = session.get(Order, order_id)
        if order is None or order.charge_id is None:
            raise ValueError(f"order {{order_id}} has no charge to refund")
        refund_id = PaymentClient().refund(order.charge_id, order.{total}())
        order.status = "refunded"
        log.info("order refunded", extra={{"order": order_id, "refund": refund_id}})
        return refund_id
"""


def _refunds(structlog: bool, total: str) -> str:
    if structlog:
        return _REFUNDS.format(
            log_import="import structlog\n", log_setup="log = structlog.get_logger()", total=total
        )
    return _REFUNDS.format(
        log_import="import logging\n", log_setup="log = logging.getLogger(__name__)", total=total
    )


_ORDERS_SERVICE = """\
\"\"\"Placing and cancelling orders.\"\"\"

from decimal import Decimal

from shop.billing.client import PaymentClient
from shop.db.models import Order, OrderLine, Product
from shop.db.session import get_session
from shop.inventory.stock import release, reserve
{events_import}from shop.orders.pricing import apply_discount
from shop.utils.money import from_cents, to_cents

COUPONS = {{"WELCOME10": Decimal("0.10"), "SPRING5": Decimal("0.05")}}


def place_order(customer_id: int, lines: list[dict], coupon: str | None = None) -> Order:
    with get_session() as session:
        order = Order(customer_id=customer_id)
        for line in lines:
            product = session.get(Product, line["product_id"])
            reserve(product.id, line["quantity"])
            order.lines.append(OrderLine(product_id=product.id, quantity=line["quantity"],
                                         unit_price_cents=product.price_cents))
        subtotal = from_cents(order.{total}())
        rate = COUPONS.get(coupon or "", Decimal(0))
        {discount_call}
        order.charge_id = PaymentClient().charge(customer_id, to_cents(amount))
        order.status = "paid"
        session.add(order)
{publish_placed}        return order


def cancel_order(order_id: int, customer_id: int) -> bool:
    with get_session() as session:
        order = session.get(Order, order_id)
        if order is None or order.customer_id != customer_id or order.status == "shipped":
            return False
        for line in order.lines:
            release(line.product_id, line.quantity)
        order.status = "cancelled"
{publish_cancelled}        return True
"""


def _orders_service(events: bool, tiers: bool, total: str) -> str:
    call = (
        "amount = apply_discount(subtotal, session.get(Customer, customer_id).tier, rate)"
        if tiers
        else "amount = apply_discount(subtotal, rate)"
    )
    text = _ORDERS_SERVICE.format(
        events_import="from shop.orders.events import publish_event\n" if events else "",
        total=total,
        discount_call=call,
        publish_placed=(
            '        publish_event("order.placed", {"order": order.id})\n' if events else ""
        ),
        publish_cancelled=(
            '        publish_event("order.cancelled", {"order": order_id})\n' if events else ""
        ),
    )
    if tiers:
        text = text.replace(
            "import Order, OrderLine, Product", "import Customer, Order, OrderLine, Product"
        )
    return text


_PRICING_V1 = """\
\"\"\"Discounts and shipping.\"\"\"

from decimal import Decimal

MAX_DISCOUNT = Decimal("0.50")


def apply_discount(subtotal: Decimal, coupon_rate: Decimal = Decimal(0)) -> Decimal:
    \"\"\"The subtotal after a coupon, never discounted by more than MAX_DISCOUNT.\"\"\"
    rate = min(coupon_rate, MAX_DISCOUNT)
    return (subtotal * (1 - rate)).quantize(Decimal("0.01"))


def shipping_cost(weight_grams: int) -> Decimal:
    if weight_grams <= 2000:
        return Decimal("4.90")
    return Decimal("4.90") + Decimal("1.50") * ((weight_grams - 2000) // 1000 + 1)
"""

_PRICING_V4 = """\
\"\"\"Discounts and shipping.\"\"\"

from decimal import Decimal

MAX_DISCOUNT = Decimal("0.30")
TIER_DISCOUNTS = {"bronze": Decimal("0.00"), "silver": Decimal("0.05"), "gold": Decimal("0.10")}


def apply_discount(subtotal: Decimal, tier: str, coupon_rate: Decimal = Decimal(0)) -> Decimal:
    \"\"\"The subtotal after the customer's tier discount plus a coupon, capped at
    MAX_DISCOUNT in total.\"\"\"
    rate = TIER_DISCOUNTS.get(tier, Decimal(0)) + coupon_rate
    rate = min(rate, MAX_DISCOUNT)
    return (subtotal * (1 - rate)).quantize(Decimal("0.01"))


def shipping_cost(weight_grams: int) -> Decimal:
    if weight_grams <= 2000:
        return Decimal("4.90")
    return Decimal("4.90") + Decimal("1.50") * ((weight_grams - 2000) // 1000 + 1)
"""

_EVENTS = """\
\"\"\"Order events, published on a Redis channel for other services.\"\"\"

import json

import redis

from shop.config import load_settings

CHANNEL = "shop-events"


def publish_event(name: str, payload: dict) -> int:
    client = redis.Redis.from_url(load_settings().redis_url)
    return client.publish(CHANNEL, json.dumps({"event": name, **payload}))
"""

_STOCK = """\
\"\"\"Stock levels: reservations take stock, releases give it back.\"\"\"

from sqlalchemy import Integer, select, update
from sqlalchemy.orm import Mapped, mapped_column

from shop.db.models import Base
from shop.db.session import get_session


class StockLevel(Base):
    __tablename__ = "stock_levels"

    product_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    on_hand: Mapped[int] = mapped_column(default=0)


class OutOfStock(Exception):
    pass


def reserve(product_id: int, quantity: int) -> None:
    with get_session() as session:
        level = session.scalar(select(StockLevel).where(StockLevel.product_id == product_id))
        if level is None or level.on_hand < quantity:
            raise OutOfStock(product_id)
        level.on_hand -= quantity


def release(product_id: int, quantity: int) -> None:
    with get_session() as session:
        session.execute(
            update(StockLevel)
            .where(StockLevel.product_id == product_id)
            .values(on_hand=StockLevel.on_hand + quantity)
        )
"""

_WAREHOUSE = """\
\"\"\"Which warehouse ships an order.\"\"\"

from dataclasses import dataclass


@dataclass(frozen=True)
class Warehouse:
    code: str
    postcode_prefixes: tuple[str, ...]


WAREHOUSES = (
    Warehouse("NORTH", ("1", "2", "3")),
    Warehouse("SOUTH", ("6", "7", "8", "9")),
    Warehouse("WEST", ("4", "5")),
)


def nearest_warehouse(postcode: str) -> Warehouse:
    for warehouse in WAREHOUSES:
        if postcode.startswith(warehouse.postcode_prefixes):
            return warehouse
    return WAREHOUSES[0]
"""

_EMAIL_V1 = """\
\"\"\"Transactional e-mail.\"\"\"

import os
import smtplib
from email.message import EmailMessage
from string import Template

RECEIPT = Template("Thank you for order $order_id.\\nTotal: $total\\n")


def send_receipt(to_address: str, order: dict) -> None:
    message = EmailMessage()
    message["Subject"] = f"Your receipt for order {order['id']}"
    message["From"] = os.getenv("MAIL_FROM", "shop@example.com")
    message["To"] = to_address
    message.set_content(RECEIPT.substitute(order_id=order["id"], total=order["total"]))
    with smtplib.SMTP(os.environ["SMTP_HOST"], int(os.getenv("SMTP_PORT", "25"))) as smtp:
        smtp.send_message(message)
"""

_EMAIL_V4 = """\
\"\"\"Transactional e-mail, rendered from templates.\"\"\"

import os
import smtplib
from email.message import EmailMessage

from jinja2 import Environment, PackageLoader, select_autoescape

_templates = Environment(loader=PackageLoader("shop", "templates"), autoescape=select_autoescape())


def send_receipt(to_address: str, order: dict) -> None:
    body = _templates.get_template("receipt.txt").render(order=order)
    message = EmailMessage()
    message["Subject"] = f"Your receipt for order {order['id']}"
    message["From"] = os.getenv("MAIL_FROM", "shop@example.com")
    message["To"] = to_address
    message.set_content(body)
    host, port = os.environ["SMTP_HOST"], int(os.getenv("SMTP_PORT", "25"))
    with smtplib.SMTP(host, port, timeout=30) as smtp:
        smtp.send_message(message)
"""

_RECEIPT_TEMPLATE = """\
Thank you for order {{ order.id }}.
{% for line in order.lines %}{{ line.quantity }} x {{ line.name }}
{% endfor %}Total: {{ order.total }}
"""

_SMS = """\
\"\"\"SMS receipts through Twilio.\"\"\"

import os

from twilio.rest import Client


def send_sms(to_number: str, text: str) -> str:
    client = Client(os.environ["TWILIO_ACCOUNT_SID"], os.environ["TWILIO_AUTH_TOKEN"])
    message = client.messages.create(to=to_number, from_="+15005550006", body=text)
    return message.sid
"""

_MEMORY_CACHE = """\
\"\"\"A small in-process cache with expiry.\"\"\"

import time


class MemoryCache:
    def __init__(self, ttl_seconds: float = 60.0) -> None:
        self.ttl = ttl_seconds
        self._items: dict[str, tuple[float, object]] = {}

    def get(self, key: str) -> object | None:
        found = self._items.get(key)
        if found is None or found[0] < time.monotonic():
            return None
        return found[1]

    def set(self, key: str, value: object) -> None:
        self._items[key] = (time.monotonic() + self.ttl, value)
"""

_REDIS_CACHE = """\
\"\"\"A cache in Redis, shared by every API worker.\"\"\"

import pickle

import redis

from shop.config import load_settings


class RedisCache:
    def __init__(self, ttl_seconds: int = 60, prefix: str = "cache:") -> None:
        self.ttl = ttl_seconds
        self.prefix = prefix
        self._redis = redis.Redis.from_url(load_settings().redis_url)

    def get(self, key: str) -> object | None:
        raw = self._redis.get(self.prefix + key)
        return None if raw is None else pickle.loads(raw)

    def set(self, key: str, value: object) -> None:
        self._redis.setex(self.prefix + key, self.ttl, pickle.dumps(value))
"""

_S3 = """\
\"\"\"Receipts and exports kept in S3.\"\"\"

import boto3

from shop.config import load_settings


def upload_receipt(key: str, data: bytes) -> str:
    bucket = load_settings().s3_bucket
    boto3.client("s3").put_object(Bucket=bucket, Key=f"receipts/{key}", Body=data)
    return f"s3://{bucket}/receipts/{key}"


def presigned_url(key: str, expires: int = 3600) -> str:
    return boto3.client("s3").generate_presigned_url(
        "get_object",
        Params={"Bucket": load_settings().s3_bucket, "Key": f"receipts/{key}"},
        ExpiresIn=expires,
    )
"""

_EXPORT = """\
\"\"\"Order exports for the accounting team.\"\"\"

import csv

from sqlalchemy import select

from shop.db.models import Order
from shop.db.session import get_session

COLUMNS = ("id", "customer_id", "status", "created_at", "total_cents")


def export_orders_csv(path: str) -> int:
    count = 0
    with get_session() as session, open(path, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(COLUMNS)
        for order in session.scalars(select(Order).order_by(Order.id)):
            writer.writerow((order.id, order.customer_id, order.status,
                             order.created_at.isoformat(), order.{total}()))
            count += 1
    return count
"""

_DAILY = """\
\"\"\"The daily sales summary.\"\"\"

from datetime import date, datetime, time, timedelta

from sqlalchemy import func, select

from shop.db.models import Order
from shop.db.session import get_session


def daily_summary(day: date) -> dict:
    start = datetime.combine(day, time.min)
    end = start + timedelta(days=1)
    with get_session() as session:
        count = session.scalar(
            select(func.count(Order.id)).where(Order.created_at >= start, Order.created_at < end)
        )
    return {"day": day.isoformat(), "orders": count or 0}
"""

_SEARCH = """\
\"\"\"Product search: a SQLite FTS5 index rebuilt from the product table.\"\"\"

import sqlite3
from pathlib import Path

from sqlalchemy import select

from shop.db.models import Product
from shop.db.session import get_session

INDEX_PATH = Path("var/search.sqlite3")


def rebuild_index() -> int:
    INDEX_PATH.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(INDEX_PATH)
    conn.execute("DROP TABLE IF EXISTS products")
    conn.execute("CREATE VIRTUAL TABLE products USING fts5(id UNINDEXED, sku, name)")
    with get_session() as session:
        rows = [(p.id, p.sku, p.name) for p in session.scalars(select(Product))]
    conn.executemany("INSERT INTO products VALUES (?, ?, ?)", rows)
    conn.commit()
    conn.close()
    return len(rows)


def search_products(query: str, limit: int = 20) -> list[dict]:
    conn = sqlite3.connect(INDEX_PATH)
    try:
        rows = conn.execute(
            "SELECT id, sku, name FROM products WHERE products MATCH ? LIMIT ?", (query, limit)
        ).fetchall()
    finally:
        conn.close()
    return [{"id": int(i), "sku": s, "name": n, "price_cents": 0} for i, s, n in rows]
"""

_MONEY = """\
\"\"\"Money is kept in integer cents; Decimal only at the edges.\"\"\"

from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")


def to_cents(amount: Decimal) -> int:
    return int((amount / CENT).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def from_cents(cents: int) -> Decimal:
    return (Decimal(cents) * CENT).quantize(CENT)


def format_money(amount: Decimal, currency: str = "EUR") -> str:
    return f"{amount.quantize(CENT)} {currency}"
"""

_LOGGING_V1 = """\
\"\"\"Logging set-up.\"\"\"

import logging


def configure_logging(level: str = "INFO") -> None:
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s %(message)s")
"""

_LOGGING_V3 = """\
\"\"\"Structured logging: JSON lines on stdout.\"\"\"

import logging

import structlog


def configure_logging(level: str = "INFO") -> None:
    logging.basicConfig(level=level, format="%(message)s")
    structlog.configure(
        processors=[
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso"),
            structlog.processors.JSONRenderer(),
        ],
        wrapper_class=structlog.make_filtering_bound_logger(logging.getLevelName(level)),
    )
"""

_RETRY = """\
\"\"\"Retries with exponential back-off for calls to other services.\"\"\"

from tenacity import retry, stop_after_attempt, wait_exponential


def with_retries(attempts: int = 3):
    return retry(
        stop=stop_after_attempt(attempts),
        wait=wait_exponential(multiplier=0.5, max=8),
        reraise=True,
    )
"""

_JOBS = """\
\"\"\"Background jobs: a Redis list as the queue, one worker process draining it.\"\"\"

import json

import redis

from shop.config import load_settings
from shop.notify.email import send_receipt

QUEUE = "shop-jobs"
HANDLERS = {"send_receipt": lambda p: send_receipt(p["to"], p["order"])}


def _redis() -> redis.Redis:
    return redis.Redis.from_url(load_settings().redis_url)


def enqueue(job: str, payload: dict) -> None:
    _redis().rpush(QUEUE, json.dumps({"job": job, "payload": payload}))


def run_worker() -> None:
    conn = _redis()
    while True:
        _, raw = conn.blpop([QUEUE])
        message = json.loads(raw)
        HANDLERS[message["job"]](message["payload"])
"""

_SEED_LOCAL = """\
\"\"\"Fill a local SQLite file with demo products (for front-end work without PostgreSQL).\"\"\"

import random
import sqlite3
import sys

NAMES = ("mug", "poster", "t-shirt", "notebook", "sticker")


def main(path: str = "demo.sqlite3") -> None:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE IF NOT EXISTS products (sku TEXT, name TEXT, price_cents INT)")
    for i in range(100):
        name = random.choice(NAMES)
        conn.execute("INSERT INTO products VALUES (?, ?, ?)", (f"SKU{i:04d}", name, 500 + i))
    conn.commit()
    conn.close()


if __name__ == "__main__":
    main(*sys.argv[1:])
"""

_BACKFILL = """\
\"\"\"One-off: print the grand total of every paid order.\"\"\"

from sqlalchemy import select

from shop.db.models import Order
from shop.db.session import get_session


def main() -> None:
    with get_session() as session:
        for order in session.scalars(select(Order).where(Order.status == "paid")):
            print(order.id, order.grand_total())


if __name__ == "__main__":
    main()
"""

_TESTS_CONFTEST = """\
import pytest


@pytest.fixture(autouse=True)
def environment(monkeypatch):
    monkeypatch.setenv("{db_var}", "sqlite://")
    monkeypatch.setenv("PAYMENT_API_URL", "https://payments.test")
    monkeypatch.setenv("PAYMENT_API_KEY", "test")
    monkeypatch.setenv("{secret_var}", "test-secret")
"""

_TEST_PRICING_V1 = """\
from decimal import Decimal

from shop.orders.pricing import apply_discount, shipping_cost


def test_coupon_discount():
    assert apply_discount(Decimal("100.00"), Decimal("0.10")) == Decimal("90.00")


def test_discount_is_capped():
    assert apply_discount(Decimal("100.00"), Decimal("0.90")) == Decimal("50.00")


def test_shipping():
    assert shipping_cost(500) == Decimal("4.90")
"""

_TEST_PRICING_V4 = """\
from decimal import Decimal

from shop.orders.pricing import apply_discount, shipping_cost


def test_tier_and_coupon():
    assert apply_discount(Decimal("100.00"), "gold", Decimal("0.10")) == Decimal("80.00")


def test_discount_is_capped():
    assert apply_discount(Decimal("100.00"), "gold", Decimal("0.90")) == Decimal("70.00")


def test_shipping():
    assert shipping_cost(500) == Decimal("4.90")
"""

_TEST_TOKENS = """\
from shop.auth.tokens import create_token, verify_token


def test_round_trip():
    assert verify_token(create_token(42)) == 42
"""

_TEST_INVOICES = """\
from shop.billing.invoices import build_invoice, invoice_number


def test_invoice_number():
    assert invoice_number(7, 2024) == "INV-2024-000007"


def test_build_invoice():
    invoice = build_invoice(7, 2024, [{"quantity": 2, "unit_price_cents": 1000}])
    assert invoice["gross"] == "24.00 EUR"
"""

_TEST_MONEY = """\
from decimal import Decimal

from shop.utils.money import from_cents, to_cents


def test_cents_round_trip():
    assert to_cents(from_cents(1999)) == 1999
    assert to_cents(Decimal("0.005")) == 1
"""

_TEST_BILLING_V3 = """\
import httpx
import respx

from shop.billing.client import PaymentClient


@respx.mock
def test_charge_returns_the_charge_id():
    respx.post("https://payments.test/charges").mock(
        return_value=httpx.Response(200, json={"id": "ch_1"})
    )
    assert PaymentClient().charge(1, 500) == "ch_1"
"""

_TEST_BILLING_V1 = """\
import responses

from shop.billing.client import PaymentClient


@responses.activate
def test_charge_returns_the_charge_id():
    responses.post("https://payments.test/charges", json={"id": "ch_1"})
    assert PaymentClient().charge(1, 500) == "ch_1"
"""

_TEST_WAREHOUSE = """\
from shop.inventory.warehouse import nearest_warehouse


def test_postcode_prefix():
    assert nearest_warehouse("70173").code == "SOUTH"
"""

_DOCKER_COMPOSE = """\
services:
  db:
    image: postgres:16
    environment:
      POSTGRES_USER: shop
      POSTGRES_PASSWORD: shop
  {redis}api:
    build: .
    env_file: .env
    ports: ["8000:8000"]
"""

_DOCKERFILE = """\
FROM python:3.12-slim
WORKDIR /app
COPY . .
RUN pip install --no-cache-dir .
CMD ["shopfront", "serve"]
"""

_GITIGNORE = "__pycache__/\n*.pyc\n.env\nvar/\n*.sqlite3\n.venv/\n"


def _compose(redis: bool) -> str:
    block = "redis:\n    image: redis:7\n  " if redis else ""
    return _DOCKER_COMPOSE.format(redis=block)


def _commits() -> list[tuple[str, str | None, str, dict[str, str | None]]]:
    """(message, tag, date, changes); a change of None deletes the file."""
    v1: dict[str, str | None] = {
        ".gitignore": _GITIGNORE,
        "README.md": _README,
        "Dockerfile": _DOCKERFILE,
        "docker-compose.yml": _compose(redis=False),
        "pyproject.toml": _pyproject("1.0.0", _DEPS_V1, "responses>=0.25"),
        ".env.example": _ENV_V1,
        "shop/__init__.py": '__version__ = "1.0.0"\n',
        "shop/config.py": _config("DB_URL", redis=False),
        "shop/app.py": _APP.format(routes="views"),
        "shop/cli.py": _CLI_V1,
        "shop/db/__init__.py": "",
        "shop/db/session.py": _DB_SESSION,
        "shop/db/models.py": _DB_MODELS.format(total="total"),
        "shop/db/migrations.py": _DB_MIGRATIONS,
        "shop/db/sql/0001_initial.sql": _SQL_0001,
        "shop/api/__init__.py": "",
        "shop/api/views.py": _API_VIEWS_V1,
        "shop/api/schemas.py": _API_SCHEMAS_V1,
        "shop/api/deps.py": _API_DEPS,
        "shop/auth/__init__.py": "",
        "shop/auth/tokens.py": _TOKENS_V1,
        "shop/auth/passwords.py": _PASSWORDS,
        "shop/billing/__init__.py": "",
        "shop/billing/client.py": _BILLING_CLIENT_V1,
        "shop/billing/invoices.py": _INVOICES,
        "shop/billing/refunds.py": _refunds(structlog=False, total="total"),
        "shop/orders/__init__.py": "",
        "shop/orders/service.py": _orders_service(events=False, tiers=False, total="total"),
        "shop/orders/pricing.py": _PRICING_V1,
        "shop/inventory/__init__.py": "",
        "shop/inventory/stock.py": _STOCK,
        "shop/inventory/warehouse.py": _WAREHOUSE,
        "shop/notify/__init__.py": "",
        "shop/notify/email.py": _EMAIL_V1,
        "shop/cache/__init__.py": "",
        "shop/cache/memory.py": _MEMORY_CACHE,
        "shop/storage/__init__.py": "",
        "shop/storage/s3.py": _S3,
        "shop/reports/__init__.py": "",
        "shop/reports/csv_export.py": _EXPORT.format(total="total"),
        "shop/reports/daily.py": _DAILY,
        "shop/utils/__init__.py": "",
        "shop/utils/money.py": _MONEY,
        "shop/utils/logging.py": _LOGGING_V1,
        "scripts/seed_local.py": _SEED_LOCAL,
        "tests/__init__.py": "",
        "tests/conftest.py": _TESTS_CONFTEST.format(db_var="DB_URL", secret_var="SECRET_KEY"),
        "tests/test_pricing.py": _TEST_PRICING_V1,
        "tests/test_tokens.py": _TEST_TOKENS,
        "tests/test_invoices.py": _TEST_INVOICES,
        "tests/test_money.py": _TEST_MONEY,
        "tests/test_billing_client.py": _TEST_BILLING_V1,
        "tests/test_warehouse.py": _TEST_WAREHOUSE,
    }
    v2: dict[str, str | None] = {
        "pyproject.toml": _pyproject("1.1.0", _DEPS_V2, "responses>=0.25"),
        ".env.example": _ENV_V2,
        "docker-compose.yml": _compose(redis=True),
        "shop/__init__.py": '__version__ = "1.1.0"\n',
        "shop/config.py": _config("DB_URL", redis=True),
        "shop/app.py": _APP.format(routes="routes"),
        "shop/api/views.py": None,
        "shop/api/routes.py": _api_routes(search=False),
        "shop/api/schemas.py": _API_SCHEMAS_V2,
        "shop/cache/memory.py": None,
        "shop/cache/redis_cache.py": _REDIS_CACHE,
        "shop/orders/events.py": _EVENTS,
        "shop/orders/service.py": _orders_service(events=True, tiers=False, total="total"),
        "shop/workers/__init__.py": "",
        "shop/workers/jobs.py": _JOBS,
        "shop/notify/sms.py": _SMS,
    }
    v3: dict[str, str | None] = {
        "pyproject.toml": _pyproject("2.0.0", _DEPS_V3, "respx>=0.21"),
        ".env.example": _ENV_V3,
        "shop/__init__.py": '__version__ = "2.0.0"\n',
        "shop/config.py": _config("DATABASE_URL", redis=True),
        "shop/cli.py": _CLI_V3,
        "shop/api/routes.py": _api_routes(search=True),
        "shop/billing/client.py": _BILLING_CLIENT_V3,
        "shop/billing/refunds.py": _refunds(structlog=True, total="total"),
        "shop/utils/retry.py": _RETRY,
        "shop/utils/logging.py": _LOGGING_V3,
        "shop/search/__init__.py": "",
        "shop/search/index.py": _SEARCH,
        "tests/conftest.py": _TESTS_CONFTEST.format(db_var="DATABASE_URL", secret_var="SECRET_KEY"),
        "tests/test_billing_client.py": _TEST_BILLING_V3,
    }
    tiers: dict[str, str | None] = {
        "pyproject.toml": _pyproject("2.1.0", _DEPS_V3, "respx>=0.21"),
        "shop/__init__.py": '__version__ = "2.1.0"\n',
        "shop/orders/pricing.py": _PRICING_V4,
        "shop/orders/service.py": _orders_service(events=True, tiers=True, total="total"),
        "tests/test_pricing.py": _TEST_PRICING_V4,
    }
    deps_v4 = [d for d in _DEPS_V4 if not d.startswith("jinja2")]
    jwt: dict[str, str | None] = {
        "pyproject.toml": _pyproject("2.2.0", deps_v4, "respx>=0.21"),
        ".env.example": _ENV_V4,
        "shop/__init__.py": '__version__ = "2.2.0"\n',
        "shop/notify/sms.py": None,
        "shop/auth/tokens.py": _TOKENS_V4,
        "tests/conftest.py": _TESTS_CONFTEST.format(db_var="DATABASE_URL", secret_var="JWT_SECRET"),
    }
    v4: dict[str, str | None] = {
        "pyproject.toml": _pyproject("2.3.0", _DEPS_V4, "respx>=0.21"),
        "CHANGELOG.md": _CHANGELOG_V4,
        "shop/__init__.py": '__version__ = "2.3.0"\n',
        "shop/notify/email.py": _EMAIL_V4,
        "shop/templates/receipt.txt": _RECEIPT_TEMPLATE,
        "shop/cli.py": _CLI_V4,
        "shop/reports/csv_export.py": None,
        "shop/reports/export.py": _EXPORT.format(total="grand_total"),
        "shop/db/models.py": _DB_MODELS.format(total="grand_total"),
        "shop/billing/refunds.py": _refunds(structlog=True, total="grand_total"),
        "shop/orders/service.py": _orders_service(events=True, tiers=True, total="grand_total"),
        "scripts/backfill_totals.py": _BACKFILL,
    }
    return [
        ("Initial shopfront service", "v1", "2024-01-08T10:00:00+00:00", v1),
        ("Redis cache, order events, job queue and SMS receipts", "v2",
         "2024-03-04T10:00:00+00:00", v2),
        ("Payment client on httpx with retries; structlog; product search", "v3",
         "2024-05-13T10:00:00+00:00", v3),
        ("Tiered discounts, cap lowered to 30%", None, "2024-06-03T10:00:00+00:00", tiers),
        ("Drop SMS receipts; JWT auth tokens", None, "2024-07-01T10:00:00+00:00", jwt),
        ("Jinja receipts; rename CSV export; Order.grand_total", "v4",
         "2024-08-12T10:00:00+00:00", v4),
    ]  # fmt: skip


def _write(root: Path, files: Mapping[str, str | None]) -> None:
    for rel, content in files.items():
        path = root / rel
        if content is None:
            path.unlink()
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content)


def build_fixture(root: Path) -> dict[str, str]:
    """Create the shopfront repository in ``root`` (an empty or missing directory) and
    return its tags mapped to commit ids. Commits are reproducible: fixed author, dates."""
    repo = ScratchRepo(root, IDENTITY)
    repo.git("config", "tag.gpgsign", "false")
    tags: dict[str, str] = {}
    for message, tag, date, files in _commits():
        _write(root, files)
        repo.git("add", "-A")
        repo.git("commit", "-q", "-m", message, date=date)
        if tag is not None:
            repo.git("tag", tag)
            tags[tag] = repo.head()
    return tags
