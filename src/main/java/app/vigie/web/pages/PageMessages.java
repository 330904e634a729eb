package app.vigie.web.pages;

import io.quarkus.qute.i18n.Message;
import io.quarkus.qute.i18n.MessageBundle;

/**
 * The words of the dashboard's and the portal's pages, {@code {msg:key}} in templates/pages/: English in
 * messages/msg_en.properties, French in messages/msg_fr.properties, the page's language chosen by the template
 * instance's locale. Checked at build time: a key used in a template and missing here, or declared here without an
 * English value, stops the build. A key starts with the page that uses it ({@code alerts_}, {@code portal_incident_});
 * words several pages share start with {@code common_}, severity levels with {@code severity_}, the menu's with
 * {@code nav_}, data categories with {@code category_}, special categories (GDPR
 * Art. 9 and 10) with {@code special_}, filter fields with {@code field_} (PageMessagesTest checks).
 *
 * <p>At most 300 methods: Quarkus 3.33 splits a bundle's generated resolver every 300 messages and the split one fails
 * bytecode verification at start ({@code VerifyError} in {@code PageMessages_Bundle.resolve_0}). A section's labels
 * share one message with a key ({@link #incident_next}) where that helps; PageMessagesTest checks the count.
 */
@MessageBundle(value = "msg", locale = "en")
public interface PageMessages {

    @Message
    String ack_acknowledge_alert();

    @Message
    String ack_acknowledge_alert_vigie();

    @Message
    String ack_acknowledgement_link_not_valid_contact();

    @Message
    String ack_alert();

    @Message
    String ack_confirm_receipt();

    @Message
    String ack_confirming_you_state_your_organisation();

    @Message
    String ack_receipt_already_recorded();

    @Message
    String ack_thank_you_receipt_recorded();

    @Message
    String ack_unknown_link();

    @Message
    String ack_your_own_deadline_notify_your();

    @Message
    String alerts_alerts_newest_first();

    @Message
    String alerts_attempts(int count);

    @Message
    String alerts_customer_alerts_vigie();

    @Message
    String alerts_every_alert_from_processor_customer();

    @Message
    String alerts_no_channel_tell_customer_hand();

    @Message
    String alerts_phase();

    @Message
    String alerts_send();

    @Message
    String alerts_send_again();

    @Message
    String alerts_unanswered();

    @Message
    String audit_action();

    @Message
    String audit_after();

    @Message
    String audit_audit_trail_events_newest_first();

    @Message
    String audit_audit_trail_vigie();

    @Message
    String audit_before();

    @Message
    String audit_every_state_change_who_when();

    @Message
    String audit_export_selection();

    @Message
    String audit_from();

    @Message
    String audit_no_event();

    @Message
    String audit_target();

    @Message
    String audit_target_prefix();

    @Message
    String audit_times_in_zone(String zone);

    @Message
    String audit_to();

    @Message
    String audit_when();

    @Message
    String audit_who();

    @Message
    String base_alerts();

    @Message
    String base_incidents();

    @Message
    String base_quarantine();

    @Message
    String base_sections();

    @Message
    String base_sign_out();

    @Message
    String base_skip_content();

    @Message
    String category_behaviour();

    @Message
    String category_communications();

    @Message
    String category_contact();

    @Message
    String category_financial();

    @Message
    String category_identifiers();

    @Message
    String category_identity();

    @Message
    String category_location();

    @Message
    String category_professional();

    @Message
    String colon();






    @Message
    String common_acknowledged();

    @Message
    String common_all();

    @Message
    String common_created();

    @Message
    String common_customer();

    @Message
    String common_customer_alerts();

    @Message
    String common_data_breach();

    @Message
    String common_deliveries();

    @Message
    String common_deployment();

    @Message
    String common_detected();

    @Message
    String common_detection();

    @Message
    String common_filter();

    @Message
    String common_first_exposure();

    @Message
    String common_last_exposure();

    @Message
    String common_leaked_responses();

    @Message
    String common_no_alert();

    @Message
    String common_older();

    @Message
    String common_pages();

    @Message
    String common_preview();

    @Message
    String common_processor_alert();

    @Message
    String common_severity();

    @Message
    String common_status();

    @Message
    String field_from();

    @Message
    String field_to();

    @Message
    String incident_seq();

    @Message
    String incident_stream();

    @Message
    String incident_vigie_automatic();

    @Message
    String incident_act();

    @Message
    String incident_alert_acknowledged_customer();

    @Message
    String incident_alert_not_acknowledged_dpo_told();

    @Message
    String incident_alert_undeliverable();

    @Message
    String incident_all_alerts_their_deliveries();

    @Message
    String incident_authority_notification_draft();

    @Message
    String incident_authority_s_receipt_number_evidence();

    @Message
    String incident_awareness_recorded();

    @Message
    String incident_change_status();

    @Message
    String incident_closed_reason_required();

    @Message
    String incident_confirmed();

    @Message
    String incident_customer_alert_prepared();

    @Message
    String incident_customer_alerted();

    @Message
    String incident_customer_s_statements();

    @Message
    String incident_deadline_reminder();

    @Message
    String incident_decision_recorded();

    @Message
    String incident_detection();

    @Message
    String incident_dismissed_reason_required();

    @Message
    String incident_document_issued();

    @Message
    String incident_documents_controller();

    @Message
    String incident_done();

    @Message
    String incident_due();

    @Message
    String incident_evidence_receipt_no();

    @Message
    String incident_findings();

    @Message
    String incident_findings_by_kind();

    @Message
    String incident_finding_kind();

    @Message
    String incident_what_it_means();

    @Message
    String incident_count();

    @Message
    String incident_first_seen();

    @Message
    String incident_first_exposure_2();

    @Message
    String incident_incident_closed();

    @Message
    String incident_letter_persons_concerned();

    @Message
    String incident_measure();

    @Message
    String incident_measure_taken();

    @Message
    String incident_measures_taken();

    @Message
    String incident_new_status();

    @Message
    String incident_no_channel();

    @Message
    String incident_no_exposure();

    @Message
    String incident_no_measure_recorded();

    @Message
    String incident_no_open_obligation();

    @Message
    String incident_not_directory();

    @Message
    String incident_not_done();

    @Message
    String incident_obligation();

    @Message
    String incident_obligation_done_receipt();

    @Message
    String incident_obligation_fulfilled();

    @Message
    String incident_obligations_deadlines();

    @Message
    String incident_open_incidents();

    @Message
    String incident_provider();

    @Message
    String incident_reason();

    @Message
    String incident_reasons_delay_when_after_deadline();

    @Message
    String incident_recipient();

    @Message
    String incident_record();

    @Message
    String incident_record_measure();

    @Message
    String incident_record_measure_2();

    @Message
    String incident_record_status();

    @Message
    String incident_recorded();

    @Message
    String incident_register_entry();

    @Message
    String incident_report_regulator();

    @Message
    String incident_seen();

    @Message
    String incident_severity();

    @Message
    String incident_severity_assessed();

    @Message
    String incident_status_change();

    @Message
    String incident_subject();

    @Message
    String incident_taken();

    @Message
    String incident_timeline();

    @Message
    String incident_triaged_being_analysed();

    @Message
    String incident_yyyy_mm_dd_hh_mm();

    @Message
    String incidents_incident_pages();

    @Message
    String incidents_late();

    @Message
    String incidents_newer();

    @Message
    String incidents_next_deadline();

    @Message
    String incidents_no_open_incident();

    @Message
    String incidents_older();

    @Message
    String incidents_open_incidents_their_next_deadline();

    @Message
    String incidents_open_newest_first(String total, int count, int page, int pages);

    @Message
    String incidents_open_obligations();

    @Message
    String incidents_tenants_affected();

    @Message
    String login_password();

    @Message
    String login_sign();

    @Message
    String login_sign_2();

    @Message
    String login_sign_vigie();

    @Message
    String login_user_name();

    @Message
    String login_wrong_user_name_password();

    @Message
    String login_you_sign_your_organisation_s();

    @Message
    String nav_audit_trail();

    @Message
    String nav_register();

    @Message
    String nav_tenants();

    @Message
    String nav_your_incidents();

    @Message
    String number_sign();

    @Message
    String overview_open_incidents();

    @Message
    String overview_open_incidents_vigie();

    @Message
    String overview_provider_s_identity_not_configured();

    @Message
    String overview_times_zone(String zone);

    @Message
    String portal_alerts_acknowledge();

    @Message
    String portal_incident_acknowledge_receipt();

    @Message
    String portal_incident_acknowledged();

    @Message
    String portal_incident_alerts_received();

    @Message
    String portal_incident_did_those_requests_carry_personal();

    @Message
    String portal_incident_difficulty_other_information_would_needed();

    @Message
    String portal_incident_directly_name_contact_details_national();

    @Message
    String portal_incident_draft_notification_your_authority();

    @Message
    String portal_incident_fairly_easily_name_identifier();

    @Message
    String portal_incident_first_read();

    @Message
    String portal_incident_hardly_isolated_data_not_linked();

    @Message
    String portal_incident_how_easily_can_these_persons();

    @Message
    String portal_incident_no();

    @Message
    String portal_incident_none();

    @Message
    String portal_incident_not_known_yet(int count);

    @Message
    String portal_incident_questionnaire_what_only_you_know();

    @Message
    String portal_incident_read();

    @Message
    String portal_incident_receipt_recorded_your_notification_deadline();

    @Message
    String portal_incident_request();

    @Message
    String portal_incident_requests_another_customer(int count);

    @Message
    String portal_incident_requests_your_own_account(int count);

    @Message
    String portal_incident_responses_left_service();

    @Message
    String portal_incident_responses_these_requests_may_hold();

    @Message
    String portal_incident_revise_my_answers();

    @Message
    String portal_incident_roughly_how_many_persons();

    @Message
    String portal_incident_send_my_answers();

    @Message
    String portal_incident_sensitive_data_gdpr_article_9();

    @Message
    String portal_incident_severity_assessed();

    @Message
    String portal_incident_source_requests();

    @Message
    String portal_incident_tokens_exposed();

    @Message
    String portal_incident_tokens_received();

    @Message
    String portal_incident_we_do_not_read_your();

    @Message
    String portal_incident_which_categories();

    @Message
    String portal_incident_yes();

    @Message
    String portal_incident_your_documents();

    @Message
    String portal_incident_your_incidents();

    @Message
    String portal_incident_your_requests_received_other_customers();

    @Message
    String portal_incident_your_requests_whose_data_was();

    @Message
    String portal_inference_service_s_incidents_touched();

    @Message
    String portal_no_incident_touches_your_requests();

    @Message
    String portal_persons_whole_number();

    @Message
    String portal_say_identification_ease();

    @Message
    String portal_say_personal_data();

    @Message
    String portal_unknown_category(String code);

    @Message
    String portal_your_incidents_vigie();

    @Message
    String portal_your_requests_exposed();

    @Message
    String portal_your_requests_received_others_data();

    @Message
    String quarantine_all();

    @Message
    String quarantine_all_2();

    @Message
    String quarantine_content();

    @Message
    String quarantine_every_rejected_line_page_audit();

    @Message
    String quarantine_newer();

    @Message
    String quarantine_no_rejected_record();

    @Message
    String quarantine_position();

    @Message
    String quarantine_quarantine_rejected_records();

    @Message
    String quarantine_quarantine_vigie();

    @Message
    String quarantine_reason();

    @Message
    String quarantine_received();

    @Message
    String quarantine_rejected_records();

    @Message
    String quarantine_source();

    @Message
    String register_breach_register_vigie();

    @Message
    String register_chain_broken_entry();

    @Message
    String register_chain_verified();

    @Message
    String register_controller();

    @Message
    String register_entries_head_hash(long count);

    @Message
    String register_export();

    @Message
    String register_hash();

    @Message
    String register_incident_id();

    @Message
    String register_nature();

    @Message
    String register_no_entry();

    @Message
    String register_personal_data_breach_register();

    @Message
    String register_recorded();

    @Message
    String register_register_entries();

    @Message
    String register_requests_exposed();

    @Message
    String severity_high();

    @Message
    String severity_low();

    @Message
    String severity_medium();

    @Message
    String severity_not_assessed();

    @Message
    String severity_very_high();

    @Message
    String special_biometric();

    @Message
    String special_criminal_convictions();

    @Message
    String special_genetic();

    @Message
    String special_health();

    @Message
    String special_political_opinions();

    @Message
    String special_racial_or_ethnic_origin();

    @Message
    String special_religious_or_philosophical_beliefs();

    @Message
    String special_sex_life_or_orientation();

    @Message
    String special_trade_union_membership();

    @Message
    String tenants_alert_channels();

    @Message
    String tenants_contract_delay();

    @Message
    String tenants_country();

    @Message
    String tenants_directory_empty();

    @Message
    String tenants_each_tenant_controller_dpo_alert();

    @Message
    String tenants_id();

    @Message
    String tenants_jurisdictions();

    @Message
    String tenants_legal_name();

    @Message
    String tenants_sectors();

    @Message
    String tenants_tenants_directory();

    @Message
    String tenants_tenants_vigie();

    @Message
    String the_provider();

    @Message
    String summary_label();

    @Message
    String summary_open(long n);

    @Message
    String summary_due_soon(long n);

    @Message
    String summary_late(long n);

    @Message
    String summary_alerts_undelivered(long n);

    @Message
    String summary_alerts_unacknowledged(long n);

    @Message
    String summary_unmapped_tenants(long n);

    @Message
    String summary_as_of(String when);

    @Message
    String summary_unplanned(long n);

    @Message
    String incidents_due_soon_only();

    @Message
    String incidents_late_only();

    @Message
    String incidents_show_all();

    @Message
    String alerts_undelivered_only();

    @Message
    String alerts_unacknowledged_only();

    @Message
    String alerts_show_all();

    @Message
    String tenants_missing();

    @Message
    String tenants_missing_explained();


    @Message
    String incident_alert_delivered(String when);

    @Message
    String incident_alert_acknowledged(String when);


}
