"""The ``etcd`` ownership authority, over etcd's documented JSON gateway (``/v3/kv/range``,
``/v3/kv/txn``, ``/v3/lease/grant``, ``/v3/lease/keepalive``, ``/v3/lease/revoke``; keys and
values base64) with the standard library's HTTP client: no extra package.

Two keys per goal under the prefix (default ``/passdown/``): ``<goal>/owner`` holds the owner
record and is attached to a lease, so it disappears when its holder stops renewing;
``<goal>/epoch`` holds the same record without a lease, so the epoch and the last owner
survive an expired lease and epochs never go back. A transition is one transaction that
compares the owner key's value and mod revision (and the epoch key's) with what was read, and
on success grants nothing new but puts both keys, the owner key with a fresh lease; of two
transactions from the same values exactly one succeeds. The owner key's mod revision after
the put is the fencing token.

A lease lives ``lease_ttl`` seconds from its grant or its last keep-alive (``passdown fence
renew``); an owner whose lease expired owns nothing until it renews, which only the last
owner at the same epoch may do, and no transition starts from an expired owner.
"""

from __future__ import annotations

import base64
import http.client
import json
import urllib.parse

from passdown.workspace._testpoints import point
from passdown.workspace._authority import (ETCD, Authority, AuthorityError, Record, Transition,
                                         decode, lost, require_owner, unreachable)

#: Seconds one request may take.
TIMEOUT = 10.0
MAX_RESPONSE = 1 << 20


def _b64(value: str | bytes) -> str:
    return base64.b64encode(value.encode() if isinstance(value, str) else value).decode()


class EtcdAuthority(Authority):
    name = ETCD

    def __init__(self, goal_id: str, *, endpoint: str, prefix: str, lease_ttl: int):
        self.goal_id = goal_id
        self.endpoint = endpoint
        self.lease_ttl = lease_ttl
        self.owner_key = f"{prefix}{goal_id}/owner"
        self.epoch_key = f"{prefix}{goal_id}/epoch"
        self.settings = {"kind": ETCD, "endpoint": endpoint, "prefix": prefix,
                         "lease_ttl": lease_ttl}
        self.what = f"etcd key {self.owner_key} at {endpoint}"
        parsed = urllib.parse.urlsplit(endpoint)
        if parsed.scheme not in ("http", "https") or not parsed.hostname:
            raise AuthorityError(f"the etcd endpoint {endpoint!r} is not an http(s) URL",
                                 code="authority.bad_setting",
                                 hint="for example --endpoint http://127.0.0.1:2379")
        self._parsed = parsed

    # -- the gateway ---------------------------------------------------------------------

    def _call(self, path: str, body: dict) -> dict:
        parsed = self._parsed
        connection_class = (http.client.HTTPSConnection if parsed.scheme == "https"
                            else http.client.HTTPConnection)
        connection = connection_class(parsed.hostname, parsed.port, timeout=TIMEOUT)
        try:
            connection.request("POST", parsed.path.rstrip("/") + path, json.dumps(body),
                               {"Content-Type": "application/json"})
            response = connection.getresponse()
            data = response.read(MAX_RESPONSE + 1)
        except (OSError, http.client.HTTPException) as error:
            raise unreachable(self.what, str(error) or type(error).__name__) from None
        finally:
            connection.close()
        try:
            value = json.loads(data) if len(data) <= MAX_RESPONSE else None
        except ValueError:
            value = None
        if response.status != 200 or not isinstance(value, dict):
            said = value.get("message") or value.get("error") if isinstance(value, dict) else None
            if response.status in (502, 503, 504):
                raise unreachable(self.what, f"HTTP {response.status} {said or ''}".strip())
            raise AuthorityError(f"etcd answered {path} with HTTP {response.status}"
                                 + (f": {said}" if said else ""), code="authority.failed",
                                 hint="check the endpoint names an etcd v3.4 or later client URL")
        return value

    def _range(self, key: str) -> dict | None:
        kvs = self._call("/v3/kv/range", {"key": _b64(key)}).get("kvs") or []
        return kvs[0] if kvs and isinstance(kvs[0], dict) else None

    def _decode(self, kv: dict, where: str) -> Record:
        try:
            raw = base64.b64decode(kv.get("value") or "", validate=True)
        except ValueError:
            raw = b""
        lease = kv.get("lease")
        return decode(raw, where, token=str(kv.get("mod_revision")),
                      lease=str(lease) if lease not in (None, "0", 0) else None)

    # -- read ----------------------------------------------------------------------------

    def _state(self) -> tuple[dict | None, dict | None]:
        """The owner key and the epoch key in one consistent read (one transaction)."""
        answer = self._call("/v3/kv/txn", {"compare": [], "success": [
            {"request_range": {"key": _b64(self.owner_key)}},
            {"request_range": {"key": _b64(self.epoch_key)}}]})
        found = []
        for response in answer.get("responses") or [{}, {}]:
            kvs = (response.get("response_range") or {}).get("kvs") or []
            found.append(kvs[0] if kvs else None)
        while len(found) < 2:
            found.append(None)
        return found[0], found[1]

    def read(self) -> Record | None:
        owner, epoch = self._state()
        if owner is not None:
            return self._decode(owner, self.what)
        if epoch is not None:
            last = self._decode(epoch, f"etcd key {self.epoch_key}")
            raise self._expired(last)
        return None

    def _expired(self, last: Record) -> AuthorityError:
        return AuthorityError(
            f"the lease of {last.owner_id} at fencing epoch {last.fencing_epoch} expired: "
            "nobody owns the goal's writes", code="authority.lease_expired", winner=last,
            hint=f"{last.owner_id} takes its hold back with `passdown fence renew` (only it "
                 "may); renew within the lease's time to keep it")

    # -- transition ----------------------------------------------------------------------

    def _compare(self, owner: dict | None, epoch: dict | None) -> list:
        def same(key: str, kv: dict | None) -> list:
            if kv is None:
                return [{"key": _b64(key), "target": "CREATE", "create_revision": "0",
                         "result": "EQUAL"}]
            return [{"key": _b64(key), "target": "MOD", "mod_revision": str(kv["mod_revision"]),
                     "result": "EQUAL"},
                    {"key": _b64(key), "target": "VALUE", "value": kv.get("value") or "",
                     "result": "EQUAL"}]
        return same(self.owner_key, owner) + same(self.epoch_key, epoch)

    def _grant(self) -> str:
        answer = self._call("/v3/lease/grant", {"TTL": str(self.lease_ttl)})
        lease = answer.get("ID")
        if lease in (None, "", "0"):
            raise AuthorityError("etcd granted no lease", code="authority.failed",
                                 hint=str(answer.get("error") or "check the etcd server"))
        return str(lease)

    def _put_both(self, record: Record, compare: list, lease: str) -> dict:
        value = _b64(record.encoded())
        return self._call("/v3/kv/txn", {"compare": compare, "success": [
            {"request_put": {"key": _b64(self.owner_key), "value": value, "lease": lease}},
            {"request_put": {"key": _b64(self.epoch_key), "value": value}}]})

    def transition(self, move: Transition, current: Record | None = None) -> Record:
        owner, epoch = self._state()
        if owner is None and epoch is not None:
            raise self._expired(self._decode(epoch, f"etcd key {self.epoch_key}"))
        current = self._decode(owner, self.what) if owner is not None else None
        if move.is_mine(current):
            return current
        move.check_source(current, self.what)
        new = move.record()
        lease = self._grant()
        point("authority.etcd.transaction")
        answer = self._put_both(new, self._compare(owner, epoch), lease)
        if answer.get("succeeded") is True:
            point("authority.etcd.committed")
            revision = (answer.get("header") or {}).get("revision")
            return Record(**{**new.body(), "token": str(revision), "lease": lease})
        self._revoke(lease)
        after = self.read()
        if move.is_mine(after):
            return after
        raise lost(after, self.what) if after is not None else self._failed_txn()

    def _failed_txn(self) -> AuthorityError:
        return AuthorityError("the etcd transaction failed and the key names no owner",
                              code="authority.failed", hint="read the key by hand")

    def _revoke(self, lease: str) -> None:
        try:
            self._call("/v3/lease/revoke", {"ID": lease})
        except AuthorityError:
            pass  # an unused lease expires by itself

    # -- renew and release -----------------------------------------------------------------

    def renew(self, owner_id: str, epoch: int) -> Record:
        owner, last = self._state()
        if owner is None and last is not None:
            previous = self._decode(last, f"etcd key {self.epoch_key}")
            require_owner(previous, owner_id, epoch, self.what)
            lease = self._grant()
            answer = self._put_both(previous, self._compare(None, last), lease)
            if answer.get("succeeded") is not True:
                self._revoke(lease)
                return self.renew(owner_id, epoch)
            revision = (answer.get("header") or {}).get("revision")
            return Record(**{**previous.body(), "token": str(revision), "lease": lease})
        record = self._decode(owner, self.what) if owner is not None else None
        require_owner(record, owner_id, epoch, self.what)
        if record.lease is not None:
            answer = self._call("/v3/lease/keepalive", {"ID": record.lease})
            if int((answer.get("result") or {}).get("TTL") or 0) <= 0:
                return self.renew(owner_id, epoch)  # expired between the read and now
        return record

    def release(self, owner_id: str, epoch: int) -> Record:
        record = self.read()
        require_owner(record, owner_id, epoch, self.what)
        if record.lease is not None:
            self._call("/v3/lease/revoke", {"ID": record.lease})
        return record
