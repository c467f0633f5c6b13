from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.job_status import JobStatus, check_job_status
from ..models.job_type import JobType, check_job_type
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.price import Price
    from ..models.share_out import ShareOut


T = TypeVar("T", bound="JobOut")


@_attrs_define
class JobOut:
    """Read from ``jobs.service.ShownJob`` (a ``Job`` row and its share).

    Attributes:
        agent_id (UUID):
        agent_job_id (None | str):
        agent_job_status (None | str):
        completed_at (datetime.datetime | None):
        created_at (datetime.datetime):
        credits_ (float): Net spend: price minus refund, in credits.
        error (None | str): Why the job failed, when it did.
        id (UUID):
        input_ (str): The job's inputData as a JSON string.
        is_demo (bool): Run by a built-in demo agent.
        job_status_settled (bool):
        job_type (JobType):
        name (str):
        on_chain_status (None | str):
        organization_id (None | UUID):
        output (None | str): The result, as in result (Sokosumi clients read output).
        price (Price): A price in display units: ``credits`` is what the caller pays, fee included.
        project_id (None | UUID):
        refund (Price): A price in display units: ``credits`` is what the caller pays, fee included.
        result (None | str): The agent's result. In listings, at most the first 2000 characters (see resultTruncated);
            GET /v1/jobs/{id} returns it whole.
        result_hash (None | str): MIP-004 hash of the whole result (sha256 of identifierFromPurchaser;result), also when
            result is a listing's preview; for jobs paid through a payment node, the hash Agora computed and compared with
            the one the agent submitted on chain (see verified).
        result_submitted_at (datetime.datetime | None):
        share (None | ShareOut):
        started_at (datetime.datetime | None):
        status (JobStatus):
        task_id (None | UUID):
        updated_at (datetime.datetime):
        user_id (UUID):
        agent_version (int | None | Unset): The agent's version that runs the job (GET /v1/agents/{id}/versions); null
            for jobs made before versions.
        input_hash (None | str | Unset): MIP-004 hash of the input (sha256 of identifierFromPurchaser;JCS(input)), as
            the agent reported it; checked against Agora's own for jobs paid through a node.
        result_truncated (bool | Unset): True when result is a listing's preview of a longer result. Default: False.
        verified (bool | None | Unset): True when resultHash equals the hash the agent submitted on chain, false when
            they differ (the job's events say so); null when there is nothing to compare.
    """

    agent_id: UUID
    agent_job_id: None | str
    agent_job_status: None | str
    completed_at: datetime.datetime | None
    created_at: datetime.datetime
    credits_: float
    error: None | str
    id: UUID
    input_: str
    is_demo: bool
    job_status_settled: bool
    job_type: JobType
    name: str
    on_chain_status: None | str
    organization_id: None | UUID
    output: None | str
    price: Price
    project_id: None | UUID
    refund: Price
    result: None | str
    result_hash: None | str
    result_submitted_at: datetime.datetime | None
    share: None | ShareOut
    started_at: datetime.datetime | None
    status: JobStatus
    task_id: None | UUID
    updated_at: datetime.datetime
    user_id: UUID
    agent_version: int | None | Unset = UNSET
    input_hash: None | str | Unset = UNSET
    result_truncated: bool | Unset = False
    verified: bool | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.share_out import ShareOut

        agent_id = str(self.agent_id)

        agent_job_id: None | str
        agent_job_id = self.agent_job_id

        agent_job_status: None | str
        agent_job_status = self.agent_job_status

        completed_at: None | str
        if isinstance(self.completed_at, datetime.datetime):
            completed_at = self.completed_at.isoformat()
        else:
            completed_at = self.completed_at

        created_at = self.created_at.isoformat()

        credits_ = self.credits_

        error: None | str
        error = self.error

        id = str(self.id)

        input_ = self.input_

        is_demo = self.is_demo

        job_status_settled = self.job_status_settled

        job_type: str = self.job_type

        name = self.name

        on_chain_status: None | str
        on_chain_status = self.on_chain_status

        organization_id: None | str
        if isinstance(self.organization_id, UUID):
            organization_id = str(self.organization_id)
        else:
            organization_id = self.organization_id

        output: None | str
        output = self.output

        price = self.price.to_dict()

        project_id: None | str
        if isinstance(self.project_id, UUID):
            project_id = str(self.project_id)
        else:
            project_id = self.project_id

        refund = self.refund.to_dict()

        result: None | str
        result = self.result

        result_hash: None | str
        result_hash = self.result_hash

        result_submitted_at: None | str
        if isinstance(self.result_submitted_at, datetime.datetime):
            result_submitted_at = self.result_submitted_at.isoformat()
        else:
            result_submitted_at = self.result_submitted_at

        share: dict[str, Any] | None
        if isinstance(self.share, ShareOut):
            share = self.share.to_dict()
        else:
            share = self.share

        started_at: None | str
        if isinstance(self.started_at, datetime.datetime):
            started_at = self.started_at.isoformat()
        else:
            started_at = self.started_at

        status: str = self.status

        task_id: None | str
        if isinstance(self.task_id, UUID):
            task_id = str(self.task_id)
        else:
            task_id = self.task_id

        updated_at = self.updated_at.isoformat()

        user_id = str(self.user_id)

        agent_version: int | None | Unset
        if isinstance(self.agent_version, Unset):
            agent_version = UNSET
        else:
            agent_version = self.agent_version

        input_hash: None | str | Unset
        if isinstance(self.input_hash, Unset):
            input_hash = UNSET
        else:
            input_hash = self.input_hash

        result_truncated = self.result_truncated

        verified: bool | None | Unset
        if isinstance(self.verified, Unset):
            verified = UNSET
        else:
            verified = self.verified

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "agentId": agent_id,
                "agentJobId": agent_job_id,
                "agentJobStatus": agent_job_status,
                "completedAt": completed_at,
                "createdAt": created_at,
                "credits": credits_,
                "error": error,
                "id": id,
                "input": input_,
                "isDemo": is_demo,
                "jobStatusSettled": job_status_settled,
                "jobType": job_type,
                "name": name,
                "onChainStatus": on_chain_status,
                "organizationId": organization_id,
                "output": output,
                "price": price,
                "projectId": project_id,
                "refund": refund,
                "result": result,
                "resultHash": result_hash,
                "resultSubmittedAt": result_submitted_at,
                "share": share,
                "startedAt": started_at,
                "status": status,
                "taskId": task_id,
                "updatedAt": updated_at,
                "userId": user_id,
            }
        )
        if agent_version is not UNSET:
            field_dict["agentVersion"] = agent_version
        if input_hash is not UNSET:
            field_dict["inputHash"] = input_hash
        if result_truncated is not UNSET:
            field_dict["resultTruncated"] = result_truncated
        if verified is not UNSET:
            field_dict["verified"] = verified

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.price import Price
        from ..models.share_out import ShareOut

        d = dict(src_dict)
        agent_id = UUID(d.pop("agentId"))

        def _parse_agent_job_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        agent_job_id = _parse_agent_job_id(d.pop("agentJobId"))

        def _parse_agent_job_status(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        agent_job_status = _parse_agent_job_status(d.pop("agentJobStatus"))

        def _parse_completed_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                completed_at_type_0 = datetime.datetime.fromisoformat(data)

                return completed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        completed_at = _parse_completed_at(d.pop("completedAt"))

        created_at = datetime.datetime.fromisoformat(d.pop("createdAt"))

        credits_ = d.pop("credits")

        def _parse_error(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error = _parse_error(d.pop("error"))

        id = UUID(d.pop("id"))

        input_ = d.pop("input")

        is_demo = d.pop("isDemo")

        job_status_settled = d.pop("jobStatusSettled")

        job_type = check_job_type(d.pop("jobType"))

        name = d.pop("name")

        def _parse_on_chain_status(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        on_chain_status = _parse_on_chain_status(d.pop("onChainStatus"))

        def _parse_organization_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                organization_id_type_0 = UUID(data)

                return organization_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        organization_id = _parse_organization_id(d.pop("organizationId"))

        def _parse_output(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        output = _parse_output(d.pop("output"))

        price = Price.from_dict(d.pop("price"))

        def _parse_project_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                project_id_type_0 = UUID(data)

                return project_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        project_id = _parse_project_id(d.pop("projectId"))

        refund = Price.from_dict(d.pop("refund"))

        def _parse_result(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        result = _parse_result(d.pop("result"))

        def _parse_result_hash(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        result_hash = _parse_result_hash(d.pop("resultHash"))

        def _parse_result_submitted_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                result_submitted_at_type_0 = datetime.datetime.fromisoformat(data)

                return result_submitted_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        result_submitted_at = _parse_result_submitted_at(d.pop("resultSubmittedAt"))

        def _parse_share(data: object) -> None | ShareOut:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                share_type_1 = ShareOut.from_dict(data)

                return share_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ShareOut, data)

        share = _parse_share(d.pop("share"))

        def _parse_started_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                started_at_type_0 = datetime.datetime.fromisoformat(data)

                return started_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        started_at = _parse_started_at(d.pop("startedAt"))

        status = check_job_status(d.pop("status"))

        def _parse_task_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                task_id_type_0 = UUID(data)

                return task_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        task_id = _parse_task_id(d.pop("taskId"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updatedAt"))

        user_id = UUID(d.pop("userId"))

        def _parse_agent_version(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        agent_version = _parse_agent_version(d.pop("agentVersion", UNSET))

        def _parse_input_hash(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        input_hash = _parse_input_hash(d.pop("inputHash", UNSET))

        result_truncated = d.pop("resultTruncated", UNSET)

        def _parse_verified(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        verified = _parse_verified(d.pop("verified", UNSET))

        job_out = cls(
            agent_id=agent_id,
            agent_job_id=agent_job_id,
            agent_job_status=agent_job_status,
            completed_at=completed_at,
            created_at=created_at,
            credits_=credits_,
            error=error,
            id=id,
            input_=input_,
            is_demo=is_demo,
            job_status_settled=job_status_settled,
            job_type=job_type,
            name=name,
            on_chain_status=on_chain_status,
            organization_id=organization_id,
            output=output,
            price=price,
            project_id=project_id,
            refund=refund,
            result=result,
            result_hash=result_hash,
            result_submitted_at=result_submitted_at,
            share=share,
            started_at=started_at,
            status=status,
            task_id=task_id,
            updated_at=updated_at,
            user_id=user_id,
            agent_version=agent_version,
            input_hash=input_hash,
            result_truncated=result_truncated,
            verified=verified,
        )

        job_out.additional_properties = d
        return job_out

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
