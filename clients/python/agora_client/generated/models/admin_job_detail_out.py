from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.admin_delivery_out import AdminDeliveryOut
    from ..models.admin_file_out import AdminFileOut
    from ..models.admin_job_detail_out_payment import AdminJobDetailOutPayment
    from ..models.admin_job_event_out import AdminJobEventOut
    from ..models.admin_job_full_out import AdminJobFullOut
    from ..models.admin_ledger_out import AdminLedgerOut


T = TypeVar("T", bound="AdminJobDetailOut")


@_attrs_define
class AdminJobDetailOut:
    """
    Attributes:
        deliveries (list[AdminDeliveryOut]):
        events (list[AdminJobEventOut]): In order; calls to the agent (dispatch, status polls) are recorded here
        files (list[AdminFileOut]):
        job (AdminJobFullOut):
        ledger (list[AdminLedgerOut]): The credits hold, capture, refund
        payment (AdminJobDetailOutPayment): backend, blockchainIdentifier, state …
    """

    deliveries: list[AdminDeliveryOut]
    events: list[AdminJobEventOut]
    files: list[AdminFileOut]
    job: AdminJobFullOut
    ledger: list[AdminLedgerOut]
    payment: AdminJobDetailOutPayment
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        deliveries = []
        for deliveries_item_data in self.deliveries:
            deliveries_item = deliveries_item_data.to_dict()
            deliveries.append(deliveries_item)

        events = []
        for events_item_data in self.events:
            events_item = events_item_data.to_dict()
            events.append(events_item)

        files = []
        for files_item_data in self.files:
            files_item = files_item_data.to_dict()
            files.append(files_item)

        job = self.job.to_dict()

        ledger = []
        for ledger_item_data in self.ledger:
            ledger_item = ledger_item_data.to_dict()
            ledger.append(ledger_item)

        payment = self.payment.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "deliveries": deliveries,
                "events": events,
                "files": files,
                "job": job,
                "ledger": ledger,
                "payment": payment,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.admin_delivery_out import AdminDeliveryOut
        from ..models.admin_file_out import AdminFileOut
        from ..models.admin_job_detail_out_payment import AdminJobDetailOutPayment
        from ..models.admin_job_event_out import AdminJobEventOut
        from ..models.admin_job_full_out import AdminJobFullOut
        from ..models.admin_ledger_out import AdminLedgerOut

        d = dict(src_dict)
        deliveries = []
        _deliveries = d.pop("deliveries")
        for deliveries_item_data in _deliveries:
            deliveries_item = AdminDeliveryOut.from_dict(deliveries_item_data)

            deliveries.append(deliveries_item)

        events = []
        _events = d.pop("events")
        for events_item_data in _events:
            events_item = AdminJobEventOut.from_dict(events_item_data)

            events.append(events_item)

        files = []
        _files = d.pop("files")
        for files_item_data in _files:
            files_item = AdminFileOut.from_dict(files_item_data)

            files.append(files_item)

        job = AdminJobFullOut.from_dict(d.pop("job"))

        ledger = []
        _ledger = d.pop("ledger")
        for ledger_item_data in _ledger:
            ledger_item = AdminLedgerOut.from_dict(ledger_item_data)

            ledger.append(ledger_item)

        payment = AdminJobDetailOutPayment.from_dict(d.pop("payment"))

        admin_job_detail_out = cls(
            deliveries=deliveries,
            events=events,
            files=files,
            job=job,
            ledger=ledger,
            payment=payment,
        )

        admin_job_detail_out.additional_properties = d
        return admin_job_detail_out

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
