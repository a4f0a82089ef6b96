"""Quotas counted across a cluster: two nodes' quotas share one Redis window (limits.py,
cluster.py), with the same figures as a single server's."""

from __future__ import annotations

import asyncio
import uuid

import pytest
from nodes import redis_base_url
from sqlalchemy import create_engine

from eterna.server.cluster import Cluster
from eterna.server.leases import LeaseStore
from eterna.server.limits import CreateQuota, HintQuota
from eterna.server.settings import RequestError


def test_a_quota_holds_across_nodes() -> None:
    async def scenario() -> None:
        leases = LeaseStore(create_engine("sqlite://"))  # not used: no lease is taken
        nodes = [Cluster(f"q{i}", redis_base_url(), leases) for i in range(2)]
        address = f"192.0.2.{uuid.uuid4().int % 250}-{uuid.uuid4().hex[:6]}"
        quotas = [CreateQuota(3, 60.0) for _ in nodes]
        hints = [HintQuota(1, 60.0) for _ in nodes]
        for node, quota, hint in zip(nodes, quotas, hints, strict=True):
            quota.shared = hint.shared = node
        await quotas[0].check(address)
        await quotas[1].check(address)
        await quotas[0].check(address)
        with pytest.raises(RequestError) as refused:  # the fourth, on either node
            await quotas[1].check(address)
        assert refused.value.status == 429 and refused.value.code == "quota"
        assert "at most 3 new tables per address every 60 s" in refused.value.message
        await quotas[0].check(f"{address}-other")  # another address has its own
        await hints[1].check(address)  # another quota too
        with pytest.raises(RequestError) as refused:
            await hints[0].check(address)
        assert refused.value.code == "hint_quota"
        for node in nodes:
            await node.redis.aclose()
            await node.listener.aclose()

    asyncio.run(scenario())
