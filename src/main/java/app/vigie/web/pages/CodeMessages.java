package app.vigie.web.pages;

import io.quarkus.qute.i18n.Message;
import io.quarkus.qute.i18n.MessageBundle;

/**
 * The words of the codes pages show (an incident's status, an alert's phase, a delivery's status, an obligation's
 * status, a detector rule, how a customer was exposed), one message per code: English in messages/code_en.properties,
 * French in messages/code_fr.properties. Pages ask {@link CodeWords} ({@code {word:incidentStatus(i.status)}}), which
 * picks the message in Java, where the compiler checks every code of an enum has its word.
 */
@MessageBundle(value = "code", locale = "en")
public interface CodeMessages {

    /** An alert's phase (INITIAL, UPDATE, FINAL). */
    @Message
    String alert_phase_initial();
    @Message
    String alert_phase_update();
    @Message
    String alert_phase_final();

    /** A delivery's status (HELD, PENDING, DELIVERED, DEAD). */
    @Message
    String delivery_status_held();
    @Message
    String delivery_status_pending();
    @Message
    String delivery_status_delivered();
    @Message
    String delivery_status_dead();

    /** An incident's status (OPEN, TRIAGED, CONFIRMED, DISMISSED, CLOSED). */
    @Message
    String incident_status_open();
    @Message
    String incident_status_triaged();
    @Message
    String incident_status_confirmed();
    @Message
    String incident_status_dismissed();
    @Message
    String incident_status_closed();

    /** An obligation's status (PENDING, DONE, LATE, TARGET_PASSED, NOT_REQUIRED). */
    @Message
    String obligation_status_pending();
    @Message
    String obligation_status_done();
    @Message
    String obligation_status_late();
    @Message
    String obligation_status_target_passed();
    @Message
    String obligation_status_not_required();

    /** A detector rule's short name (CROSS_TENANT_READ, INTRA_TENANT_READ, CROSS_TENANT_SHARE, UNINITIALIZED_READ, REJECTED_REQUEST_SERVED, TRANSFER_COVERAGE_GAP, TRANSFER_CHECKSUM_MISMATCH, TRANSFER_SENT_FOREIGN, TRANSFER_OVERWRITTEN_IN_FLIGHT, CONTEXT_EXCEEDS_POOL, DOUBLE_ALLOC, STREAM_GAP, TABLE_EVICTED, TRANSFER_SEND_MISSING, SHARED_PAGE_FOREIGN, STREAM_UNSUPPORTED, RESTART_WHILE_OWNING). */
    @Message
    String rule_cross_tenant_read();
    @Message
    String rule_intra_tenant_read();
    @Message
    String rule_cross_tenant_share();
    @Message
    String rule_uninitialized_read();
    @Message
    String rule_rejected_request_served();
    @Message
    String rule_transfer_coverage_gap();
    @Message
    String rule_transfer_checksum_mismatch();
    @Message
    String rule_transfer_sent_foreign();
    @Message
    String rule_transfer_overwritten_in_flight();
    @Message
    String rule_context_exceeds_pool();
    @Message
    String rule_double_alloc();
    @Message
    String rule_stream_gap();
    @Message
    String rule_table_evicted();
    @Message
    String rule_transfer_send_missing();
    @Message
    String rule_shared_page_foreign();
    @Message
    String rule_stream_unsupported();
    @Message
    String rule_restart_while_owning();

    /** How a customer was exposed (VICTIM, RECIPIENT, BOTH, POSSIBLY_VICTIM, POSSIBLY_RECIPIENT, POSSIBLY_BOTH). */
    @Message
    String customer_role_victim();
    @Message
    String customer_role_recipient();
    @Message
    String customer_role_both();
    @Message
    String customer_role_possibly_victim();
    @Message
    String customer_role_possibly_recipient();
    @Message
    String customer_role_possibly_both();
}
