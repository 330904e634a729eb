package app.vigie.web.pages;

import io.quarkus.qute.TemplateExtension;
import io.quarkus.qute.TemplateExtension.TemplateAttribute;
import io.quarkus.qute.i18n.Localized;
import io.quarkus.qute.i18n.MessageBundles;

import app.vigie.detection.core.Rule;
import app.vigie.incident.IncidentStatus;
import app.vigie.platform.Languages;

/**
 * A code's word in the page's language ({@link CodeMessages}): {@code {word:incidentStatus(i.status)}} in a page
 * template (the language from the template instance's locale, {@code setLocale}), {@code CodeWords.rule(code, "fr")}
 * in Java. The choice is Java's, not a template's: a switch over the enum where there is one (a new incident status or
 * detector rule without its word does not compile), over the codes the database holds otherwise. A code no word knows
 * is shown as it is, never as nothing.
 */
public final class CodeWords {
    private CodeWords() {
    }

    static CodeMessages words(String language) {
        return MessageBundles.get(CodeMessages.class, Localized.Literal.of("fr".equals(language) ? "fr" : "en"));
    }

    @TemplateExtension(namespace = "word")
    static String incidentStatus(String code, @TemplateAttribute("locale") Object locale) {
        return incidentStatus(code, language(locale));
    }

    @TemplateExtension(namespace = "word")
    static String alertPhase(String code, @TemplateAttribute("locale") Object locale) {
        return alertPhase(code, language(locale));
    }

    @TemplateExtension(namespace = "word")
    static String deliveryStatus(String code, @TemplateAttribute("locale") Object locale) {
        return deliveryStatus(code, language(locale));
    }

    @TemplateExtension(namespace = "word")
    static String obligationStatus(String code, @TemplateAttribute("locale") Object locale) {
        return obligationStatus(code, language(locale));
    }

    @TemplateExtension(namespace = "word")
    static String customerRole(String code, @TemplateAttribute("locale") Object locale) {
        return customerRole(code, language(locale));
    }

    @TemplateExtension(namespace = "word")
    static String timelineAction(String code, @TemplateAttribute("locale") Object locale) {
        return timelineAction(code, language(locale));
    }

    /** What an event of the incident's timeline is (its audit action: incident.status, alert.delivered...). */
    public static String timelineAction(String code, String language) {
        PageMessages w = PageWords.of(language);
        return code == null ? "" : switch (code) {
            case "first_exposure" -> w.incident_first_exposure_2();
            case "detected" -> w.incident_detection();
            case "incident.status" -> w.incident_status_change();
            case "case.awareness" -> w.incident_awareness_recorded();
            case "case.decision" -> w.incident_decision_recorded();
            case "case.severity" -> w.incident_severity_assessed();
            case "case.statements" -> w.incident_customer_s_statements();
            case "obligation.completion" -> w.incident_obligation_fulfilled();
            case "obligation.escalation" -> w.incident_deadline_reminder();
            case "incident.measure" -> w.incident_measure_taken();
            case "document.issue" -> w.incident_document_issued();
            case "register.append" -> w.incident_register_entry();
            case "alert.planned" -> w.incident_customer_alert_prepared();
            case "alert.delivered" -> w.incident_customer_alerted();
            case "alert.acknowledged" -> w.incident_alert_acknowledged_customer();
            case "alert.dead" -> w.incident_alert_undeliverable();
            case "alert.unacknowledged" -> w.incident_alert_not_acknowledged_dpo_told();
            default -> code;
        };
    }

    @TemplateExtension(namespace = "word")
    static String severity(String code, @TemplateAttribute("locale") Object locale) {
        return severity(code, language(locale));
    }

    @TemplateExtension(namespace = "word")
    static String nextStatus(String code, @TemplateAttribute("locale") Object locale) {
        return nextStatus(code, language(locale));
    }

    @TemplateExtension(namespace = "word")
    static String tenantField(String code, @TemplateAttribute("locale") Object locale) {
        return tenantField(code, language(locale));
    }

    /** A severity level (ENISA's LOW to VERY_HIGH); none: not assessed. */
    public static String severity(String code, String language) {
        PageMessages w = PageWords.of(language);
        return code == null ? w.severity_not_assessed() : switch (code) {
            case "LOW" -> w.severity_low();
            case "MEDIUM" -> w.severity_medium();
            case "HIGH" -> w.severity_high();
            case "VERY_HIGH" -> w.severity_very_high();
            default -> code;
        };
    }

    /** A status the incident may move to, as the form offers it (with what it asks: a reason). */
    public static String nextStatus(String code, String language) {
        PageMessages w = PageWords.of(language);
        return code == null ? "" : switch (code) {
            case "TRIAGED" -> w.incident_triaged_being_analysed();
            case "CONFIRMED" -> w.incident_confirmed();
            case "DISMISSED" -> w.incident_dismissed_reason_required();
            case "CLOSED" -> w.incident_closed_reason_required();
            default -> code;
        };
    }

    /** A field of a tenant's directory entry, as the import's preview names what a line changes. */
    public static String tenantField(String code, String language) {
        PageMessages w = PageWords.of(language);
        CockpitMessages ck = PageWords.cockpit(language);
        return code == null ? "" : switch (code) {
            case "legal_name" -> w.tenants_legal_name();
            case "country" -> w.tenants_country();
            case "dpo" -> "DPO";
            case "alert_channels" -> w.tenants_alert_channels();
            case "alert_delay" -> w.tenants_contract_delay();
            case "jurisdictions" -> w.tenants_jurisdictions();
            case "sectors" -> w.tenants_sectors();
            case "company_id" -> ck.directory_company_id();
            case "processor_is_agent" -> ck.directory_processor_is_agent();
            default -> code;
        };
    }

    /** An incident's status (OPEN, TRIAGED, CONFIRMED, DISMISSED, CLOSED) in {@code language}. */
    public static String incidentStatus(String code, String language) {
        IncidentStatus status = constant(IncidentStatus.class, code);
        if (status == null) {
            return code == null ? "" : code;
        }
        CodeMessages w = words(language);
        return switch (status) {
            case OPEN -> w.incident_status_open();
            case TRIAGED -> w.incident_status_triaged();
            case CONFIRMED -> w.incident_status_confirmed();
            case DISMISSED -> w.incident_status_dismissed();
            case CLOSED -> w.incident_status_closed();
        };
    }

    /** A detector rule's short name (CROSS_TENANT_READ...) in {@code language}. */
    public static String rule(String code, String language) {
        Rule rule = constant(Rule.class, code);
        if (rule == null) {
            return code == null ? "" : code;
        }
        CodeMessages w = words(language);
        return switch (rule) {
            case CROSS_TENANT_READ -> w.rule_cross_tenant_read();
            case INTRA_TENANT_READ -> w.rule_intra_tenant_read();
            case CROSS_TENANT_SHARE -> w.rule_cross_tenant_share();
            case UNINITIALIZED_READ -> w.rule_uninitialized_read();
            case REJECTED_REQUEST_SERVED -> w.rule_rejected_request_served();
            case TRANSFER_COVERAGE_GAP -> w.rule_transfer_coverage_gap();
            case TRANSFER_CHECKSUM_MISMATCH -> w.rule_transfer_checksum_mismatch();
            case TRANSFER_SENT_FOREIGN -> w.rule_transfer_sent_foreign();
            case TRANSFER_OVERWRITTEN_IN_FLIGHT -> w.rule_transfer_overwritten_in_flight();
            case CONTEXT_EXCEEDS_POOL -> w.rule_context_exceeds_pool();
            case DOUBLE_ALLOC -> w.rule_double_alloc();
            case STREAM_GAP -> w.rule_stream_gap();
            case TABLE_EVICTED -> w.rule_table_evicted();
            case TRANSFER_SEND_MISSING -> w.rule_transfer_send_missing();
            case SHARED_PAGE_FOREIGN -> w.rule_shared_page_foreign();
            case STREAM_UNSUPPORTED -> w.rule_stream_unsupported();
            case RESTART_WHILE_OWNING -> w.rule_restart_while_owning();
        };
    }

    /** An alert's phase (INITIAL, UPDATE, FINAL) in {@code language}. */
    public static String alertPhase(String code, String language) {
        CodeMessages w = words(language);
        return code == null ? "" : switch (code) {
            case "INITIAL" -> w.alert_phase_initial();
            case "UPDATE" -> w.alert_phase_update();
            case "FINAL" -> w.alert_phase_final();
            default -> code;
        };
    }

    /** A delivery's status (HELD, PENDING, DELIVERED, DEAD) in {@code language}. */
    public static String deliveryStatus(String code, String language) {
        CodeMessages w = words(language);
        return code == null ? "" : switch (code) {
            case "HELD" -> w.delivery_status_held();
            case "PENDING" -> w.delivery_status_pending();
            case "DELIVERED" -> w.delivery_status_delivered();
            case "DEAD" -> w.delivery_status_dead();
            default -> code;
        };
    }

    /**
     * An obligation's status as {@code Obligation.statusWord} says it (PENDING, DONE, LATE, TARGET_PASSED,
     * NOT_REQUIRED) in {@code language}.
     */
    public static String obligationStatus(String code, String language) {
        CodeMessages w = words(language);
        return code == null ? "" : switch (code) {
            case "PENDING" -> w.obligation_status_pending();
            case "DONE" -> w.obligation_status_done();
            case "LATE" -> w.obligation_status_late();
            case "TARGET_PASSED" -> w.obligation_status_target_passed();
            case "NOT_REQUIRED" -> w.obligation_status_not_required();
            default -> code;
        };
    }

    /** How a customer was exposed (VICTIM, RECIPIENT, BOTH, and POSSIBLY_ each) in {@code language}. */
    public static String customerRole(String code, String language) {
        CodeMessages w = words(language);
        return code == null ? "" : switch (code) {
            case "VICTIM" -> w.customer_role_victim();
            case "RECIPIENT" -> w.customer_role_recipient();
            case "BOTH" -> w.customer_role_both();
            case "POSSIBLY_VICTIM" -> w.customer_role_possibly_victim();
            case "POSSIBLY_RECIPIENT" -> w.customer_role_possibly_recipient();
            case "POSSIBLY_BOTH" -> w.customer_role_possibly_both();
            default -> code;
        };
    }

    private static <E extends Enum<E>> E constant(Class<E> type, String code) {
        if (code == null) {
            return null;
        }
        try {
            return Enum.valueOf(type, code);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static String language(Object locale) {
        return Languages.of(locale);
    }
}
