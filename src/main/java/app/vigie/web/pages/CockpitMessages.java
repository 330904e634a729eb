package app.vigie.web.pages;

import io.quarkus.qute.i18n.Message;
import io.quarkus.qute.i18n.MessageBundle;

/**
 * The words of the DPO's cockpit (the incident page's header, its pictures, its evidence and inline actions; the
 * regulator pack's links; the tenant directory's import), {@code {ck:key}} in templates/pages/: English in
 * messages/ck_en.properties, French in messages/ck_fr.properties. A second bundle beside {@link PageMessages}, which
 * is at Quarkus's limit of 300 messages; the same rules hold (PageMessagesTest checks both). One message per word,
 * named after its section ({@code act_resend}): the build checks every word a page asks for (no word chosen at run
 * time).
 */
@MessageBundle(value = "ck", locale = "en")
public interface CockpitMessages {

    /** The incident page's header: next, none, severity, customers, late. */
    @Message
    String header_next();

    @Message
    String header_none();

    @Message
    String header_severity();

    @Message
    String header_customers();

    @Message
    String header_late();

    /** The regulator pack's links and their help: incident, portal, help, portal_help. */
    @Message
    String pack_portal();

    @Message
    String pack_incident();

    @Message
    String pack_help();

    @Message
    String pack_portal_help();

    /** The link to one controller's regulator pack, named after it. */
    @Message
    String pack_of(String controller);

    /**
     * "What happened": the picture of responses over time and the matrix (title, timeline, timeline_caption,
     * first_exposure, detection, measure, matrix, cross, same, delivered, contained, unknown, others, victim,
     * reader, none, matrix_help).
     */
    @Message
    String happened_responses_delivered();

    @Message
    String happened_responses_contained();

    @Message
    String happened_title();

    @Message
    String happened_timeline();

    @Message
    String happened_timeline_caption();

    @Message
    String happened_first_exposure();

    @Message
    String happened_first_possible();

    @Message
    String happened_last_possible();

    @Message
    String happened_detection();

    @Message
    String happened_measure();

    @Message
    String happened_matrix();

    @Message
    String happened_cross();

    @Message
    String happened_same();

    @Message
    String happened_delivered();

    @Message
    String happened_contained();

    @Message
    String happened_unknown();

    @Message
    String happened_others();

    @Message
    String happened_victim();

    @Message
    String happened_reader();

    @Message
    String happened_none();

    @Message
    String happened_matrix_help();

    @Message
    String happened_possible_needed();

    @Message
    String happened_possible_decide();

    @Message
    String happened_possible_breach();

    @Message
    String happened_possible_not_breach();

    @Message
    String happened_portal_possible_title();

    @Message
    String happened_portal_possible_help();

    @Message
    String happened_portal_possible_tokens();

    @Message
    String happened_portal_possible_first();

    @Message
    String happened_portal_possible_how();

    @Message
    String happened_portal_possibly_read();

    @Message
    String happened_portal_possibly_received();

    @Message
    String happened_possible();

    @Message
    String happened_responses_possible();

    /** How many of the responses drawn were delivered. */
    @Message
    String happened_delivered_count(int delivered);

    /** The evidence section: download_csv, download_json, previous, next, pages. */
    @Message
    String evidence_download_csv();

    @Message
    String evidence_download_json();

    @Message
    String evidence_previous();

    @Message
    String evidence_next();

    @Message
    String evidence_pages();

    /** The findings' rows shown: {@code from} to {@code to} of {@code total}. */
    @Message
    String evidence_rows(int from, int to, int total);

    /** Leaking responses in a time bucket of the timeline picture, for its tooltip. */
    @Message
    String happened_bucket(String from, String to, int responses);

    /**
     * Responses that may have carried another customer's tokens (spec 1.3, amendment 3: a possible exposure only),
     * counted apart from the others.
     */
    @Message
    String happened_possible_count(int responses);

    /**
     * The known technical causes (root-causes/): title, intro, none, support, examples, prevention, references,
     * unaccounted, catalogue, first_seen, since.
     */
    @Message
    String cause_title();

    @Message
    String cause_intro();

    @Message
    String cause_none();

    @Message
    String cause_support();

    @Message
    String cause_examples();

    @Message
    String cause_prevention();

    @Message
    String cause_references();

    @Message
    String cause_unaccounted();

    @Message
    String cause_catalogue();

    @Message
    String cause_first_seen();

    @Message
    String cause_since();

    /** How many subjects (requests, or a node's boot) a cause was seen on. */
    @Message
    String cause_subjects(long subjects);

    /** Inline actions: a decision, a delivery resent or released, a customer added; their fields and buttons. */
    @Message
    String act_release_help();

    @Message
    String act_release();

    @Message
    String act_choose_decision();

    @Message
    String act_answer_yes_no();

    @Message
    String act_decision();

    @Message
    String act_decision_name();

    @Message
    String act_decision_value();

    @Message
    String act_yes();

    @Message
    String act_no();

    @Message
    String act_justification();

    @Message
    String act_decision_submit();

    @Message
    String act_no_decision();

    @Message
    String act_resend();

    @Message
    String act_resend_help();

    @Message
    String act_map();

    @Message
    String act_map_help();

    @Message
    String act_legal_name();

    @Message
    String act_country();

    @Message
    String act_email();

    @Message
    String act_map_submit();

    /** The tenant directory's import and export. */
    @Message
    String directory_company_id();

    @Message
    String directory_processor_is_agent();

    @Message
    String directory_import();

    @Message
    String directory_import_help();

    @Message
    String directory_file();

    @Message
    String directory_preview();

    @Message
    String directory_confirm();

    @Message
    String directory_export_yaml();

    @Message
    String directory_export_csv();

    @Message
    String directory_line();

    @Message
    String directory_error();

    @Message
    String directory_tenant();

    @Message
    String directory_action();

    @Message
    String directory_create();

    @Message
    String directory_update();

    @Message
    String directory_same();

    @Message
    String directory_saved();

    @Message
    String directory_nothing();

    /** An import saved: {@code changed} tenants created or changed. */
    @Message
    String directory_saved_count(int changed);

    /** The import's preview: {@code valid} tenants to save, {@code errors} lines refused. */
    @Message
    String directory_preview_counts(int valid, int errors);

    /** The incident page's customers table: its title, caption, columns and alert states. */
    @Message
    String customers_title();

    @Message
    String customers_caption();

    @Message
    String customers_how();

    @Message
    String customers_requests();

    @Message
    String customers_tokens_read();

    @Message
    String customers_tokens_received();

    @Message
    String customers_alert();

    @Message
    String customers_its_next();

    @Message
    String customers_not_acknowledged();

    @Message
    String customers_not_delivered();

    @Message
    String customers_none();

    @Message
    String customers_see_alerts();

    /** The incident page's "what to do next" table: title, none, caption, who, action, record. */
    @Message
    String next_title();

    @Message
    String next_none();

    @Message
    String next_caption();

    @Message
    String next_who();

    @Message
    String next_action();

    @Message
    String next_record();
}
