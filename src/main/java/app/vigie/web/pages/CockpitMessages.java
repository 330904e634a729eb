package app.vigie.web.pages;

import io.quarkus.qute.i18n.Message;
import io.quarkus.qute.i18n.MessageBundle;

/**
 * The words of the DPO's cockpit (the incident page's header, its pictures, its evidence and inline actions; the
 * regulator pack's links; the tenant directory's import), {@code {ck:key}} in templates/pages/: English in
 * messages/ck_en.properties, French in messages/ck_fr.properties. A second bundle beside {@link PageMessages}, which
 * is at Quarkus's limit of 300 messages; the same rules hold (PageMessagesTest checks both). Each message is one
 * section's words, chosen by {@code key}, a word the bundle does not know shown as its key.
 */
@MessageBundle(value = "ck", locale = "en")
public interface CockpitMessages {

    /** The incident page's header: next, none, severity, customers, late. */
    @Message
    String header(String key);

    /** The regulator pack's links and their help: incident, portal, help, portal_help. */
    @Message
    String pack(String key);

    /** The link to one controller's regulator pack, named after it. */
    @Message
    String pack_of(String controller);

    /**
     * "What happened": the picture of responses over time and the matrix (title, timeline, timeline_caption,
     * first_exposure, detection, measure, matrix, cross, same, delivered, contained, unknown, others, victim,
     * reader, none, matrix_help).
     */
    @Message
    String happened(String key);

    /** How many of the responses drawn were delivered. */
    @Message
    String happened_delivered(int delivered);

    /** The evidence section: download_csv, download_json, previous, next, pages. */
    @Message
    String evidence(String key);

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
    String happened_possible(int responses);

    /**
     * The known technical causes (root-causes/): title, intro, none, support, examples, prevention, references,
     * unaccounted, catalogue, first_seen, since.
     */
    @Message
    String cause(String key);

    /** How many subjects (requests, or a node's boot) a cause was seen on. */
    @Message
    String cause_subjects(long subjects);

    /** Inline actions: a decision, a delivery resent or released, a customer added; their fields and buttons. */
    @Message
    String act(String key);

    /** The tenant directory's import and export. */
    @Message
    String directory(String key);

    /** An import saved: {@code changed} tenants created or changed. */
    @Message
    String directory_saved(int changed);

    /** The import's preview: {@code valid} tenants to save, {@code errors} lines refused. */
    @Message
    String directory_preview(int valid, int errors);
}
