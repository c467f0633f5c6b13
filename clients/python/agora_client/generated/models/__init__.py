"""Contains all the data models used in inputs/outputs"""

from .a2a_agent_submission import A2AAgentSubmission
from .account_deletion_out import AccountDeletionOut
from .account_out import AccountOut
from .accounts_message_out import AccountsMessageOut
from .actor import Actor
from .actor_type import ActorType
from .admin_agent_out import AdminAgentOut
from .admin_agent_out_adminoverride import AdminAgentOutAdminoverride
from .admin_cap_out import AdminCapOut
from .admin_delivery_out import AdminDeliveryOut
from .admin_file_out import AdminFileOut
from .admin_job_detail_out import AdminJobDetailOut
from .admin_job_detail_out_payment import AdminJobDetailOutPayment
from .admin_job_event_out import AdminJobEventOut
from .admin_job_event_out_detail import AdminJobEventOutDetail
from .admin_job_full_out import AdminJobFullOut
from .admin_job_out import AdminJobOut
from .admin_key_out import AdminKeyOut
from .admin_ledger_out import AdminLedgerOut
from .admin_listed_job_out import AdminListedJobOut
from .admin_member_out import AdminMemberOut
from .admin_organization_detail_out import AdminOrganizationDetailOut
from .admin_organization_out import AdminOrganizationOut
from .admin_override import AdminOverride
from .admin_session_out import AdminSessionOut
from .admin_user_detail_out import AdminUserDetailOut
from .admin_user_out import AdminUserOut
from .admin_workspace_out import AdminWorkspaceOut
from .agent_detail_out import AgentDetailOut
from .agent_failures_out import AgentFailuresOut
from .agent_out import AgentOut
from .agent_registration import AgentRegistration
from .agent_status import AgentStatus
from .agent_submission import AgentSubmission
from .agent_update import AgentUpdate
from .agent_version_out import AgentVersionOut
from .agent_version_out_inputschema import AgentVersionOutInputschema
from .agents_availability_out import AgentsAvailabilityOut
from .api_key_in import ApiKeyIn
from .api_key_out import ApiKeyOut
from .assignee_in import AssigneeIn
from .assignee_ref import AssigneeRef
from .assignee_ref_type import AssigneeRefType
from .audit_event_out import AuditEventOut
from .audit_event_out_details import AuditEventOutDetails
from .author_in import AuthorIn
from .author_out import AuthorOut
from .billing_webhook_out import BillingWebhookOut
from .cap_out import CapOut
from .cap_set import CapSet
from .category_create import CategoryCreate
from .category_out import CategoryOut
from .category_ref import CategoryRef
from .check_out import CheckOut
from .compared_agent_out import ComparedAgentOut
from .conflict_error import ConflictError
from .conflict_error_error import ConflictErrorError
from .conformance_out import ConformanceOut
from .conversation_create import ConversationCreate
from .conversation_item import ConversationItem
from .conversation_item_kind import ConversationItemKind
from .conversation_out import ConversationOut
from .conversation_update import ConversationUpdate
from .conversations_message_out import ConversationsMessageOut
from .coworker_create import CoworkerCreate
from .coworker_create_capabilities_item import CoworkerCreateCapabilitiesItem
from .coworker_create_metadata import CoworkerCreateMetadata
from .coworker_key_create import CoworkerKeyCreate
from .coworker_key_out import CoworkerKeyOut
from .coworker_out import CoworkerOut
from .coworker_out_metadata import CoworkerOutMetadata
from .coworker_ref import CoworkerRef
from .coworker_status import CoworkerStatus
from .coworker_update import CoworkerUpdate
from .coworker_update_capabilities_type_0_item import CoworkerUpdateCapabilitiesType0Item
from .coworker_update_metadata import CoworkerUpdateMetadata
from .created_api_key_out import CreatedApiKeyOut
from .created_invitation_out import CreatedInvitationOut
from .credits_out import CreditsOut
from .dashboard_out import DashboardOut
from .dashboard_out_faileddeliveries import DashboardOutFaileddeliveries
from .dashboard_out_jobsperstatus import DashboardOutJobsperstatus
from .data_export_out import DataExportOut
from .delivery_out import DeliveryOut
from .delivery_out_payload import DeliveryOutPayload
from .detailed_error import DetailedError
from .detailed_error_meta import DetailedErrorMeta
from .developer_agent_out import DeveloperAgentOut
from .developer_availability_out import DeveloperAvailabilityOut
from .developer_stats_out import DeveloperStatsOut
from .dismiss_in import DismissIn
from .dismissed_out import DismissedOut
from .download_in import DownloadIn
from .earnings_agent_out import EarningsAgentOut
from .earnings_balance_out import EarningsBalanceOut
from .earnings_out import EarningsOut
from .email_in import EmailIn
from .envelope_a_account_deletion_out import EnvelopeAAccountDeletionOut
from .envelope_a_account_out import EnvelopeAAccountOut
from .envelope_a_api_key_out import EnvelopeAApiKeyOut
from .envelope_a_cap_out import EnvelopeACapOut
from .envelope_a_created_api_key_out import EnvelopeACreatedApiKeyOut
from .envelope_a_created_invitation_out import EnvelopeACreatedInvitationOut
from .envelope_a_credits_out import EnvelopeACreditsOut
from .envelope_a_data_export_out import EnvelopeADataExportOut
from .envelope_a_delivery_out import EnvelopeADeliveryOut
from .envelope_a_file_out import EnvelopeAFileOut
from .envelope_a_input_request_out import EnvelopeAInputRequestOut
from .envelope_a_invitation_out import EnvelopeAInvitationOut
from .envelope_a_job_out import EnvelopeAJobOut
from .envelope_a_low_balance_out import EnvelopeALowBalanceOut
from .envelope_a_marked_out import EnvelopeAMarkedOut
from .envelope_a_member_out import EnvelopeAMemberOut
from .envelope_a_message_out import EnvelopeAMessageOut
from .envelope_a_notification_out import EnvelopeANotificationOut
from .envelope_a_notification_page import EnvelopeANotificationPage
from .envelope_a_occurrences_out import EnvelopeAOccurrencesOut
from .envelope_a_organization_out import EnvelopeAOrganizationOut
from .envelope_a_pack_out import EnvelopeAPackOut
from .envelope_a_passkey_out import EnvelopeAPasskeyOut
from .envelope_a_password_rules_out import EnvelopeAPasswordRulesOut
from .envelope_a_payment_out import EnvelopeAPaymentOut
from .envelope_a_promotion_code_out import EnvelopeAPromotionCodeOut
from .envelope_a_purchase_created_out import EnvelopeAPurchaseCreatedOut
from .envelope_a_purchase_out import EnvelopeAPurchaseOut
from .envelope_a_recovery_codes_out import EnvelopeARecoveryCodesOut
from .envelope_a_saved_input_out import EnvelopeASavedInputOut
from .envelope_a_schedule_out import EnvelopeAScheduleOut
from .envelope_a_second_step_out import EnvelopeASecondStepOut
from .envelope_a_session_out import EnvelopeASessionOut
from .envelope_a_signed_in_out import EnvelopeASignedInOut
from .envelope_a_signing_secret_out import EnvelopeASigningSecretOut
from .envelope_a_unread_count_out import EnvelopeAUnreadCountOut
from .envelope_a_user_out import EnvelopeAUserOut
from .envelope_a_web_authn_options_out import EnvelopeAWebAuthnOptionsOut
from .envelope_a_webhook_endpoint_out import EnvelopeAWebhookEndpointOut
from .envelope_a_webhook_out import EnvelopeAWebhookOut
from .envelope_alist_agent_out import EnvelopeAlistAgentOut
from .envelope_alist_api_key_out import EnvelopeAlistApiKeyOut
from .envelope_alist_audit_event_out import EnvelopeAlistAuditEventOut
from .envelope_alist_cap_out import EnvelopeAlistCapOut
from .envelope_alist_data_export_out import EnvelopeAlistDataExportOut
from .envelope_alist_delivery_out import EnvelopeAlistDeliveryOut
from .envelope_alist_identity_out import EnvelopeAlistIdentityOut
from .envelope_alist_invitation_out import EnvelopeAlistInvitationOut
from .envelope_alist_job_event_out import EnvelopeAlistJobEventOut
from .envelope_alist_job_file_out import EnvelopeAlistJobFileOut
from .envelope_alist_job_link_out import EnvelopeAlistJobLinkOut
from .envelope_alist_member_out import EnvelopeAlistMemberOut
from .envelope_alist_organization_key_out import EnvelopeAlistOrganizationKeyOut
from .envelope_alist_organization_out import EnvelopeAlistOrganizationOut
from .envelope_alist_pack_out import EnvelopeAlistPackOut
from .envelope_alist_passkey_out import EnvelopeAlistPasskeyOut
from .envelope_alist_payout_out import EnvelopeAlistPayoutOut
from .envelope_alist_preference_out import EnvelopeAlistPreferenceOut
from .envelope_alist_promotion_code_out import EnvelopeAlistPromotionCodeOut
from .envelope_alist_purchase_out import EnvelopeAlistPurchaseOut
from .envelope_alist_saved_input_out import EnvelopeAlistSavedInputOut
from .envelope_alist_session_out import EnvelopeAlistSessionOut
from .envelope_alist_webhook_endpoint_out import EnvelopeAlistWebhookEndpointOut
from .envelope_b_admin_agent_out import EnvelopeBAdminAgentOut
from .envelope_b_admin_job_detail_out import EnvelopeBAdminJobDetailOut
from .envelope_b_admin_organization_detail_out import EnvelopeBAdminOrganizationDetailOut
from .envelope_b_admin_organization_out import EnvelopeBAdminOrganizationOut
from .envelope_b_admin_user_detail_out import EnvelopeBAdminUserDetailOut
from .envelope_b_admin_user_out import EnvelopeBAdminUserOut
from .envelope_b_agent_detail_out import EnvelopeBAgentDetailOut
from .envelope_b_agent_out import EnvelopeBAgentOut
from .envelope_b_category_out import EnvelopeBCategoryOut
from .envelope_b_conversation_out import EnvelopeBConversationOut
from .envelope_b_coworker_key_out import EnvelopeBCoworkerKeyOut
from .envelope_b_coworker_out import EnvelopeBCoworkerOut
from .envelope_b_dashboard_out import EnvelopeBDashboardOut
from .envelope_b_developer_agent_out import EnvelopeBDeveloperAgentOut
from .envelope_b_developer_stats_out import EnvelopeBDeveloperStatsOut
from .envelope_b_dismissed_out import EnvelopeBDismissedOut
from .envelope_b_earnings_out import EnvelopeBEarningsOut
from .envelope_b_grant_out import EnvelopeBGrantOut
from .envelope_b_input_schema_out import EnvelopeBInputSchemaOut
from .envelope_b_job_assignment import EnvelopeBJobAssignment
from .envelope_b_job_out import EnvelopeBJobOut
from .envelope_b_message_out import EnvelopeBMessageOut
from .envelope_b_onboarding_link_out import EnvelopeBOnboardingLinkOut
from .envelope_b_org_suspension_out import EnvelopeBOrgSuspensionOut
from .envelope_b_payout_account_out import EnvelopeBPayoutAccountOut
from .envelope_b_project_deleted import EnvelopeBProjectDeleted
from .envelope_b_project_out import EnvelopeBProjectOut
from .envelope_b_quarantined_out import EnvelopeBQuarantinedOut
from .envelope_b_rating_out import EnvelopeBRatingOut
from .envelope_b_retried_out import EnvelopeBRetriedOut
from .envelope_b_retried_payment_out import EnvelopeBRetriedPaymentOut
from .envelope_b_shared_job_out import EnvelopeBSharedJobOut
from .envelope_b_statement_out import EnvelopeBStatementOut
from .envelope_b_suspension_out import EnvelopeBSuspensionOut
from .envelope_b_task_assignment import EnvelopeBTaskAssignment
from .envelope_b_task_event_out import EnvelopeBTaskEventOut
from .envelope_b_task_out import EnvelopeBTaskOut
from .envelope_b_usage_out import EnvelopeBUsageOut
from .envelope_blist_admin_agent_out import EnvelopeBlistAdminAgentOut
from .envelope_blist_admin_listed_job_out import EnvelopeBlistAdminListedJobOut
from .envelope_blist_admin_organization_out import EnvelopeBlistAdminOrganizationOut
from .envelope_blist_admin_user_out import EnvelopeBlistAdminUserOut
from .envelope_blist_agent_out import EnvelopeBlistAgentOut
from .envelope_blist_agent_version_out import EnvelopeBlistAgentVersionOut
from .envelope_blist_audit_event_out import EnvelopeBlistAuditEventOut
from .envelope_blist_category_out import EnvelopeBlistCategoryOut
from .envelope_blist_compared_agent_out import EnvelopeBlistComparedAgentOut
from .envelope_blist_conversation_out import EnvelopeBlistConversationOut
from .envelope_blist_coworker_out import EnvelopeBlistCoworkerOut
from .envelope_blist_developer_agent_out import EnvelopeBlistDeveloperAgentOut
from .envelope_blist_job_out import EnvelopeBlistJobOut
from .envelope_blist_message_out import EnvelopeBlistMessageOut
from .envelope_blist_project_out import EnvelopeBlistProjectOut
from .envelope_blist_quarantined_out import EnvelopeBlistQuarantinedOut
from .envelope_blist_rating_out import EnvelopeBlistRatingOut
from .envelope_blist_report_out import EnvelopeBlistReportOut
from .envelope_blist_stuck_payment_out import EnvelopeBlistStuckPaymentOut
from .envelope_blist_task_event_out import EnvelopeBlistTaskEventOut
from .envelope_blist_task_out import EnvelopeBlistTaskOut
from .error_seen_out import ErrorSeenOut
from .example_output_in import ExampleOutputIn
from .example_output_out import ExampleOutputOut
from .export_jobs_scope import ExportJobsScope
from .field_error import FieldError
from .file_out import FileOut
from .file_page import FilePage
from .get_job_result_format import GetJobResultFormat
from .grant_in import GrantIn
from .grant_out import GrantOut
from .history_page import HistoryPage
from .history_pagination import HistoryPagination
from .identity_out import IdentityOut
from .input_field import InputField
from .input_request_out import InputRequestOut
from .input_request_out_inputschema import InputRequestOutInputschema
from .input_schema_out import InputSchemaOut
from .input_schema_out_input_data_type_0_item import InputSchemaOutInputDataType0Item
from .input_schema_out_input_groups_type_0_item import InputSchemaOutInputGroupsType0Item
from .invitation_in import InvitationIn
from .invitation_in_role import InvitationInRole
from .invitation_out import InvitationOut
from .invitation_token_in import InvitationTokenIn
from .job_assignment import JobAssignment
from .job_assignment_in import JobAssignmentIn
from .job_counts_out import JobCountsOut
from .job_create import JobCreate
from .job_create_inputdata import JobCreateInputdata
from .job_event_out import JobEventOut
from .job_event_out_data import JobEventOutData
from .job_event_out_detail import JobEventOutDetail
from .job_file_out import JobFileOut
from .job_inputs import JobInputs
from .job_inputs_inputdata import JobInputsInputdata
from .job_link_out import JobLinkOut
from .job_out import JobOut
from .job_page import JobPage
from .job_share_request import JobShareRequest
from .job_status import JobStatus
from .job_type import JobType
from .ledger_entry_out import LedgerEntryOut
from .legal_in import LegalIn
from .legal_out import LegalOut
from .list_conversations_archived import ListConversationsArchived
from .list_coworkers_capability_type_0_item import ListCoworkersCapabilityType0Item
from .list_coworkers_scope import ListCoworkersScope
from .list_jobs_scope import ListJobsScope
from .list_tasks_archived import ListTasksArchived
from .list_tasks_scope import ListTasksScope
from .low_balance_out import LowBalanceOut
from .low_balance_set import LowBalanceSet
from .marked_out import MarkedOut
from .member_out import MemberOut
from .message_create import MessageCreate
from .message_create_role import MessageCreateRole
from .meta_b import MetaB
from .meta_b_pagination import MetaBPagination
from .named_ref import NamedRef
from .notification_out import NotificationOut
from .notification_out_data import NotificationOutData
from .notification_page import NotificationPage
from .notifications_webhook_out import NotificationsWebhookOut
from .occurrences_out import OccurrencesOut
from .onboarding_link_out import OnboardingLinkOut
from .org_suspension_out import OrgSuspensionOut
from .organization_in import OrganizationIn
from .organization_key_out import OrganizationKeyOut
from .organization_out import OrganizationOut
from .organization_ref import OrganizationRef
from .pack_create import PackCreate
from .pack_out import PackOut
from .pack_update import PackUpdate
from .pagination import Pagination
from .participant_in import ParticipantIn
from .passkey_assertion_in import PasskeyAssertionIn
from .passkey_assertion_in_credential import PasskeyAssertionInCredential
from .passkey_in import PasskeyIn
from .passkey_in_credential import PasskeyInCredential
from .passkey_name_in import PasskeyNameIn
from .passkey_out import PasskeyOut
from .password_change_in import PasswordChangeIn
from .password_in import PasswordIn
from .password_reset_in import PasswordResetIn
from .password_rules_out import PasswordRulesOut
from .payment_out import PaymentOut
from .payout_account_out import PayoutAccountOut
from .payout_out import PayoutOut
from .preference_in import PreferenceIn
from .preference_out import PreferenceOut
from .preferences_in import PreferencesIn
from .price import Price
from .price_out import PriceOut
from .profile_update import ProfileUpdate
from .project_create import ProjectCreate
from .project_deleted import ProjectDeleted
from .project_out import ProjectOut
from .project_update import ProjectUpdate
from .promotion_code_create import PromotionCodeCreate
from .promotion_code_out import PromotionCodeOut
from .promotion_code_update import PromotionCodeUpdate
from .published_out import PublishedOut
from .purchase_create import PurchaseCreate
from .purchase_created_out import PurchaseCreatedOut
from .purchase_out import PurchaseOut
from .purchase_pay import PurchasePay
from .quarantined_out import QuarantinedOut
from .quarantined_out_entry import QuarantinedOutEntry
from .rating_create import RatingCreate
from .rating_out import RatingOut
from .rating_summary import RatingSummary
from .rating_summary_distribution import RatingSummaryDistribution
from .rating_update import RatingUpdate
from .read_by_reference_in import ReadByReferenceIn
from .recovery_codes_out import RecoveryCodesOut
from .refund_in import RefundIn
from .reject_decision import RejectDecision
from .reply_create import ReplyCreate
from .report_create import ReportCreate
from .report_out import ReportOut
from .retried_out import RetriedOut
from .retried_payment_out import RetriedPaymentOut
from .review_decision import ReviewDecision
from .review_out import ReviewOut
from .role_in import RoleIn
from .role_in_role import RoleInRole
from .run_page import RunPage
from .saved_input_create import SavedInputCreate
from .saved_input_create_inputdata import SavedInputCreateInputdata
from .saved_input_out import SavedInputOut
from .saved_input_out_inputdata import SavedInputOutInputdata
from .schedule_create import ScheduleCreate
from .schedule_create_inputdata import ScheduleCreateInputdata
from .schedule_create_missedpolicy import ScheduleCreateMissedpolicy
from .schedule_out import ScheduleOut
from .schedule_out_inputdata import ScheduleOutInputdata
from .schedule_out_task import ScheduleOutTask
from .schedule_page import SchedulePage
from .schedule_run_out import ScheduleRunOut
from .schedule_update import ScheduleUpdate
from .schedule_update_inputdata import ScheduleUpdateInputdata
from .schedule_update_missedpolicy import ScheduleUpdateMissedpolicy
from .second_step_in import SecondStepIn
from .second_step_out import SecondStepOut
from .session_out import SessionOut
from .share_organization import ShareOrganization
from .share_out import ShareOut
from .share_user import ShareUser
from .shared_job_out import SharedJobOut
from .sign_in_in import SignInIn
from .sign_up_in import SignUpIn
from .signed_in_out import SignedInOut
from .signing_secret_out import SigningSecretOut
from .simple_error import SimpleError
from .statement_line_out import StatementLineOut
from .statement_out import StatementOut
from .stuck_payment_out import StuckPaymentOut
from .suspend_in import SuspendIn
from .suspension_out import SuspensionOut
from .tag import Tag
from .task_assignment import TaskAssignment
from .task_assignment_in import TaskAssignmentIn
from .task_create import TaskCreate
from .task_create_metadata import TaskCreateMetadata
from .task_event_create import TaskEventCreate
from .task_event_create_metadata import TaskEventCreateMetadata
from .task_event_out import TaskEventOut
from .task_event_out_change import TaskEventOutChange
from .task_event_out_kind import TaskEventOutKind
from .task_event_out_metadata import TaskEventOutMetadata
from .task_job_create import TaskJobCreate
from .task_job_create_inputdata import TaskJobCreateInputdata
from .task_out import TaskOut
from .task_out_metadata import TaskOutMetadata
from .task_template import TaskTemplate
from .task_update import TaskUpdate
from .task_update_metadata import TaskUpdateMetadata
from .token_in import TokenIn
from .unread_count_out import UnreadCountOut
from .upload_file_body import UploadFileBody
from .usage_create import UsageCreate
from .usage_out import UsageOut
from .user_out import UserOut
from .vendor import Vendor
from .web_authn_options_out import WebAuthnOptionsOut
from .web_authn_options_out_publickey import WebAuthnOptionsOutPublickey
from .webhook_endpoint_out import WebhookEndpointOut
from .webhook_in import WebhookIn
from .work_item import WorkItem
from .work_item_kind import WorkItemKind
from .workspace_switch_in import WorkspaceSwitchIn

__all__ = (
    "A2AAgentSubmission",
    "AccountDeletionOut",
    "AccountOut",
    "AccountsMessageOut",
    "Actor",
    "ActorType",
    "AdminAgentOut",
    "AdminAgentOutAdminoverride",
    "AdminCapOut",
    "AdminDeliveryOut",
    "AdminFileOut",
    "AdminJobDetailOut",
    "AdminJobDetailOutPayment",
    "AdminJobEventOut",
    "AdminJobEventOutDetail",
    "AdminJobFullOut",
    "AdminJobOut",
    "AdminKeyOut",
    "AdminLedgerOut",
    "AdminListedJobOut",
    "AdminMemberOut",
    "AdminOrganizationDetailOut",
    "AdminOrganizationOut",
    "AdminOverride",
    "AdminSessionOut",
    "AdminUserDetailOut",
    "AdminUserOut",
    "AdminWorkspaceOut",
    "AgentDetailOut",
    "AgentFailuresOut",
    "AgentOut",
    "AgentRegistration",
    "AgentStatus",
    "AgentSubmission",
    "AgentUpdate",
    "AgentVersionOut",
    "AgentVersionOutInputschema",
    "AgentsAvailabilityOut",
    "ApiKeyIn",
    "ApiKeyOut",
    "AssigneeIn",
    "AssigneeRef",
    "AssigneeRefType",
    "AuditEventOut",
    "AuditEventOutDetails",
    "AuthorIn",
    "AuthorOut",
    "BillingWebhookOut",
    "CapOut",
    "CapSet",
    "CategoryCreate",
    "CategoryOut",
    "CategoryRef",
    "CheckOut",
    "ComparedAgentOut",
    "ConflictError",
    "ConflictErrorError",
    "ConformanceOut",
    "ConversationCreate",
    "ConversationItem",
    "ConversationItemKind",
    "ConversationOut",
    "ConversationUpdate",
    "ConversationsMessageOut",
    "CoworkerCreate",
    "CoworkerCreateCapabilitiesItem",
    "CoworkerCreateMetadata",
    "CoworkerKeyCreate",
    "CoworkerKeyOut",
    "CoworkerOut",
    "CoworkerOutMetadata",
    "CoworkerRef",
    "CoworkerStatus",
    "CoworkerUpdate",
    "CoworkerUpdateCapabilitiesType0Item",
    "CoworkerUpdateMetadata",
    "CreatedApiKeyOut",
    "CreatedInvitationOut",
    "CreditsOut",
    "DashboardOut",
    "DashboardOutFaileddeliveries",
    "DashboardOutJobsperstatus",
    "DataExportOut",
    "DeliveryOut",
    "DeliveryOutPayload",
    "DetailedError",
    "DetailedErrorMeta",
    "DeveloperAgentOut",
    "DeveloperAvailabilityOut",
    "DeveloperStatsOut",
    "DismissIn",
    "DismissedOut",
    "DownloadIn",
    "EarningsAgentOut",
    "EarningsBalanceOut",
    "EarningsOut",
    "EmailIn",
    "EnvelopeAAccountDeletionOut",
    "EnvelopeAAccountOut",
    "EnvelopeAApiKeyOut",
    "EnvelopeACapOut",
    "EnvelopeACreatedApiKeyOut",
    "EnvelopeACreatedInvitationOut",
    "EnvelopeACreditsOut",
    "EnvelopeADataExportOut",
    "EnvelopeADeliveryOut",
    "EnvelopeAFileOut",
    "EnvelopeAInputRequestOut",
    "EnvelopeAInvitationOut",
    "EnvelopeAJobOut",
    "EnvelopeALowBalanceOut",
    "EnvelopeAMarkedOut",
    "EnvelopeAMemberOut",
    "EnvelopeAMessageOut",
    "EnvelopeANotificationOut",
    "EnvelopeANotificationPage",
    "EnvelopeAOccurrencesOut",
    "EnvelopeAOrganizationOut",
    "EnvelopeAPackOut",
    "EnvelopeAPasskeyOut",
    "EnvelopeAPasswordRulesOut",
    "EnvelopeAPaymentOut",
    "EnvelopeAPromotionCodeOut",
    "EnvelopeAPurchaseCreatedOut",
    "EnvelopeAPurchaseOut",
    "EnvelopeARecoveryCodesOut",
    "EnvelopeASavedInputOut",
    "EnvelopeAScheduleOut",
    "EnvelopeASecondStepOut",
    "EnvelopeASessionOut",
    "EnvelopeASignedInOut",
    "EnvelopeASigningSecretOut",
    "EnvelopeAUnreadCountOut",
    "EnvelopeAUserOut",
    "EnvelopeAWebAuthnOptionsOut",
    "EnvelopeAWebhookEndpointOut",
    "EnvelopeAWebhookOut",
    "EnvelopeAlistAgentOut",
    "EnvelopeAlistApiKeyOut",
    "EnvelopeAlistAuditEventOut",
    "EnvelopeAlistCapOut",
    "EnvelopeAlistDataExportOut",
    "EnvelopeAlistDeliveryOut",
    "EnvelopeAlistIdentityOut",
    "EnvelopeAlistInvitationOut",
    "EnvelopeAlistJobEventOut",
    "EnvelopeAlistJobFileOut",
    "EnvelopeAlistJobLinkOut",
    "EnvelopeAlistMemberOut",
    "EnvelopeAlistOrganizationKeyOut",
    "EnvelopeAlistOrganizationOut",
    "EnvelopeAlistPackOut",
    "EnvelopeAlistPasskeyOut",
    "EnvelopeAlistPayoutOut",
    "EnvelopeAlistPreferenceOut",
    "EnvelopeAlistPromotionCodeOut",
    "EnvelopeAlistPurchaseOut",
    "EnvelopeAlistSavedInputOut",
    "EnvelopeAlistSessionOut",
    "EnvelopeAlistWebhookEndpointOut",
    "EnvelopeBAdminAgentOut",
    "EnvelopeBAdminJobDetailOut",
    "EnvelopeBAdminOrganizationDetailOut",
    "EnvelopeBAdminOrganizationOut",
    "EnvelopeBAdminUserDetailOut",
    "EnvelopeBAdminUserOut",
    "EnvelopeBAgentDetailOut",
    "EnvelopeBAgentOut",
    "EnvelopeBCategoryOut",
    "EnvelopeBConversationOut",
    "EnvelopeBCoworkerKeyOut",
    "EnvelopeBCoworkerOut",
    "EnvelopeBDashboardOut",
    "EnvelopeBDeveloperAgentOut",
    "EnvelopeBDeveloperStatsOut",
    "EnvelopeBDismissedOut",
    "EnvelopeBEarningsOut",
    "EnvelopeBGrantOut",
    "EnvelopeBInputSchemaOut",
    "EnvelopeBJobAssignment",
    "EnvelopeBJobOut",
    "EnvelopeBMessageOut",
    "EnvelopeBOnboardingLinkOut",
    "EnvelopeBOrgSuspensionOut",
    "EnvelopeBPayoutAccountOut",
    "EnvelopeBProjectDeleted",
    "EnvelopeBProjectOut",
    "EnvelopeBQuarantinedOut",
    "EnvelopeBRatingOut",
    "EnvelopeBRetriedOut",
    "EnvelopeBRetriedPaymentOut",
    "EnvelopeBSharedJobOut",
    "EnvelopeBStatementOut",
    "EnvelopeBSuspensionOut",
    "EnvelopeBTaskAssignment",
    "EnvelopeBTaskEventOut",
    "EnvelopeBTaskOut",
    "EnvelopeBUsageOut",
    "EnvelopeBlistAdminAgentOut",
    "EnvelopeBlistAdminListedJobOut",
    "EnvelopeBlistAdminOrganizationOut",
    "EnvelopeBlistAdminUserOut",
    "EnvelopeBlistAgentOut",
    "EnvelopeBlistAgentVersionOut",
    "EnvelopeBlistAuditEventOut",
    "EnvelopeBlistCategoryOut",
    "EnvelopeBlistComparedAgentOut",
    "EnvelopeBlistConversationOut",
    "EnvelopeBlistCoworkerOut",
    "EnvelopeBlistDeveloperAgentOut",
    "EnvelopeBlistJobOut",
    "EnvelopeBlistMessageOut",
    "EnvelopeBlistProjectOut",
    "EnvelopeBlistQuarantinedOut",
    "EnvelopeBlistRatingOut",
    "EnvelopeBlistReportOut",
    "EnvelopeBlistStuckPaymentOut",
    "EnvelopeBlistTaskEventOut",
    "EnvelopeBlistTaskOut",
    "ErrorSeenOut",
    "ExampleOutputIn",
    "ExampleOutputOut",
    "ExportJobsScope",
    "FieldError",
    "FileOut",
    "FilePage",
    "GetJobResultFormat",
    "GrantIn",
    "GrantOut",
    "HistoryPage",
    "HistoryPagination",
    "IdentityOut",
    "InputField",
    "InputRequestOut",
    "InputRequestOutInputschema",
    "InputSchemaOut",
    "InputSchemaOutInputDataType0Item",
    "InputSchemaOutInputGroupsType0Item",
    "InvitationIn",
    "InvitationInRole",
    "InvitationOut",
    "InvitationTokenIn",
    "JobAssignment",
    "JobAssignmentIn",
    "JobCountsOut",
    "JobCreate",
    "JobCreateInputdata",
    "JobEventOut",
    "JobEventOutData",
    "JobEventOutDetail",
    "JobFileOut",
    "JobInputs",
    "JobInputsInputdata",
    "JobLinkOut",
    "JobOut",
    "JobPage",
    "JobShareRequest",
    "JobStatus",
    "JobType",
    "LedgerEntryOut",
    "LegalIn",
    "LegalOut",
    "ListConversationsArchived",
    "ListCoworkersCapabilityType0Item",
    "ListCoworkersScope",
    "ListJobsScope",
    "ListTasksArchived",
    "ListTasksScope",
    "LowBalanceOut",
    "LowBalanceSet",
    "MarkedOut",
    "MemberOut",
    "MessageCreate",
    "MessageCreateRole",
    "MetaB",
    "MetaBPagination",
    "NamedRef",
    "NotificationOut",
    "NotificationOutData",
    "NotificationPage",
    "NotificationsWebhookOut",
    "OccurrencesOut",
    "OnboardingLinkOut",
    "OrgSuspensionOut",
    "OrganizationIn",
    "OrganizationKeyOut",
    "OrganizationOut",
    "OrganizationRef",
    "PackCreate",
    "PackOut",
    "PackUpdate",
    "Pagination",
    "ParticipantIn",
    "PasskeyAssertionIn",
    "PasskeyAssertionInCredential",
    "PasskeyIn",
    "PasskeyInCredential",
    "PasskeyNameIn",
    "PasskeyOut",
    "PasswordChangeIn",
    "PasswordIn",
    "PasswordResetIn",
    "PasswordRulesOut",
    "PaymentOut",
    "PayoutAccountOut",
    "PayoutOut",
    "PreferenceIn",
    "PreferenceOut",
    "PreferencesIn",
    "Price",
    "PriceOut",
    "ProfileUpdate",
    "ProjectCreate",
    "ProjectDeleted",
    "ProjectOut",
    "ProjectUpdate",
    "PromotionCodeCreate",
    "PromotionCodeOut",
    "PromotionCodeUpdate",
    "PublishedOut",
    "PurchaseCreate",
    "PurchaseCreatedOut",
    "PurchaseOut",
    "PurchasePay",
    "QuarantinedOut",
    "QuarantinedOutEntry",
    "RatingCreate",
    "RatingOut",
    "RatingSummary",
    "RatingSummaryDistribution",
    "RatingUpdate",
    "ReadByReferenceIn",
    "RecoveryCodesOut",
    "RefundIn",
    "RejectDecision",
    "ReplyCreate",
    "ReportCreate",
    "ReportOut",
    "RetriedOut",
    "RetriedPaymentOut",
    "ReviewDecision",
    "ReviewOut",
    "RoleIn",
    "RoleInRole",
    "RunPage",
    "SavedInputCreate",
    "SavedInputCreateInputdata",
    "SavedInputOut",
    "SavedInputOutInputdata",
    "ScheduleCreate",
    "ScheduleCreateInputdata",
    "ScheduleCreateMissedpolicy",
    "ScheduleOut",
    "ScheduleOutInputdata",
    "ScheduleOutTask",
    "SchedulePage",
    "ScheduleRunOut",
    "ScheduleUpdate",
    "ScheduleUpdateInputdata",
    "ScheduleUpdateMissedpolicy",
    "SecondStepIn",
    "SecondStepOut",
    "SessionOut",
    "ShareOrganization",
    "ShareOut",
    "ShareUser",
    "SharedJobOut",
    "SignInIn",
    "SignUpIn",
    "SignedInOut",
    "SigningSecretOut",
    "SimpleError",
    "StatementLineOut",
    "StatementOut",
    "StuckPaymentOut",
    "SuspendIn",
    "SuspensionOut",
    "Tag",
    "TaskAssignment",
    "TaskAssignmentIn",
    "TaskCreate",
    "TaskCreateMetadata",
    "TaskEventCreate",
    "TaskEventCreateMetadata",
    "TaskEventOut",
    "TaskEventOutChange",
    "TaskEventOutKind",
    "TaskEventOutMetadata",
    "TaskJobCreate",
    "TaskJobCreateInputdata",
    "TaskOut",
    "TaskOutMetadata",
    "TaskTemplate",
    "TaskUpdate",
    "TaskUpdateMetadata",
    "TokenIn",
    "UnreadCountOut",
    "UploadFileBody",
    "UsageCreate",
    "UsageOut",
    "UserOut",
    "Vendor",
    "WebAuthnOptionsOut",
    "WebAuthnOptionsOutPublickey",
    "WebhookEndpointOut",
    "WebhookIn",
    "WorkItem",
    "WorkItemKind",
    "WorkspaceSwitchIn",
)
