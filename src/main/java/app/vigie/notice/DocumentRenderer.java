package app.vigie.notice;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.jboss.logging.Logger;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.qute.Location;
import io.quarkus.qute.Template;
import io.quarkus.runtime.StartupEvent;

/**
 * A document's three forms: its page (HTML from templates/notices/, in its language), its data (JSON, kept exactly as
 * stored or sent) and its PDF/A-3u with that JSON inside, signed when a keystore is configured.
 */
@ApplicationScoped
public class DocumentRenderer {

    /**
     * The documents' templates, each by its file (a legal team edits them there), found and checked when the service
     * is built: a missing file, or an expression its declared data ({@code {@app.vigie.notice.ProcessorAlert alert}})
     * does not have, stops the build. A document is chosen by its type and its language, never by a string.
     */
    @Inject
    @Location("notices/authority-notification.en.html")
    Template authorityEn;

    @Inject
    @Location("notices/authority-notification.fr.html")
    Template authorityFr;

    @Inject
    @Location("notices/data-subject-communication.en.html")
    Template dataSubjectsEn;

    @Inject
    @Location("notices/data-subject-communication.fr.html")
    Template dataSubjectsFr;

    @Inject
    @Location("notices/processor-alert.en.html")
    Template processorAlertEn;

    @Inject
    @Location("notices/processor-alert.fr.html")
    Template processorAlertFr;

    @Inject
    @Location("notices/incident-report.en.html")
    Template reportEn;

    @Inject
    @Location("notices/incident-report.fr.html")
    Template reportFr;

    @Inject
    ObjectMapper json;

    @Inject
    Words words;

    @Inject
    SigningConfig signingConfig;

    private PdfSigning signing;

    /** Reads the signing key when one is configured: a keystore that cannot be read stops the start. */
    void start(@Observes StartupEvent e) {
        if (signingConfig.keystore().isPresent()) {
            signing = PdfSigning.load(Path.of(signingConfig.keystore().get()),
                    signingConfig.password().orElse("").toCharArray(), signingConfig.alias().orElse(null));
            Logger.getLogger(DocumentRenderer.class).infof("PDFs are signed with the key of %s",
                    signingConfig.keystore().get());
        }
    }

    /**
     * A document rendered three ways; its title is its page's. {@code html} is the body its template makes; its
     * {@code annexes} follow it (in the page, {@link #page()}; in the PDF, on pages of their own) and its
     * {@code attachments} go into the PDF beside the JSON.
     */
    public record Rendered(String title, String lang, String html, byte[] json, List<PdfAnnex> annexes,
            List<PdfRenderer.Attachment> attachments) {
        /** A page and its data, titled as its template titles it. */
        static Rendered of(String lang, String html, byte[] json) {
            return new Rendered(DocumentRenderer.title(html), lang, html, json, List.of(), List.of());
        }

        /** The document as one page: its body, then its annexes. */
        public String page() {
            if (annexes.isEmpty()) {
                return html;
            }
            StringBuilder out = new StringBuilder();
            annexes.forEach(a -> out.append(a.html()));
            int end = html.lastIndexOf("</body>");
            return end < 0 ? html + out : html.substring(0, end) + out + html.substring(end);
        }
    }

    /** The processor's alert to a controller. */
    public static final String PROCESSOR_ALERT = "processor-alert";


    /**
     * The text of a page's {@code <title>}: a document's title (its PDF's, its signature's reason) is the one its
     * template gives, in its language, so that the legal team's files are its only source.
     */
    static String title(String html) {
        int start = html.indexOf("<title>");
        int end = start < 0 ? -1 : html.indexOf("</title>", start);
        if (end < 0) {
            throw new IllegalStateException("a document's template gives it no <title>");
        }
        return html.substring(start + "<title>".length(), end).strip().replace("&lt;", "<").replace("&gt;", ">")
                .replace("&quot;", "\"").replace("&#39;", "'").replace("&amp;", "&");
    }

    /** The authority notification ({@code notices/authority-notification.<lang>.html}). */
    public Rendered authorityNotification(AuthorityNotification n, String lang) {
        return render(inLanguage(lang, authorityEn, authorityFr), lang, n, "n");
    }

    /** The communication to the people concerned ({@code notices/data-subject-communication.<lang>.html}). */
    public Rendered dataSubjectCommunication(DataSubjectCommunication d, String lang) {
        return render(inLanguage(lang, dataSubjectsEn, dataSubjectsFr), lang, d, "d");
    }

    /** The processor's alert to a controller ({@code notices/processor-alert.<lang>.html}). */
    public Rendered processorAlert(ProcessorAlert alert, String lang) {
        return render(inLanguage(lang, processorAlertEn, processorAlertFr), lang, alert, "alert");
    }

    /** The provider's incident report ({@code notices/incident-report.<lang>.html}). */
    public Rendered incidentReport(IncidentReport report, String lang) {
        return render(inLanguage(lang, reportEn, reportFr), lang, report, "r");
    }

    /** A document's template in {@code lang}: French for fr, English otherwise (the languages documents have). */
    public static Template inLanguage(String lang, Template english, Template french) {
        return "fr".equals(lang) ? french : english;
    }

    /**
     * A document of another feature (the register's export) from its own template, {@code param} the name its
     * template declares its data by.
     */
    public Rendered render(Template t, String lang, Object data, String param) {
        try {
            return withAnnexes(Rendered.of(lang, t.data(param, data).setLocale(lang).render(), json.writeValueAsBytes(data)), data);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A processor alert's long lists as annexes, and the CSV of its requests, when it has such lists. */
    private Rendered withAnnexes(Rendered r, Object data) {
        if (!(data instanceof ProcessorAlert a) || !a.exposedAnnexed() && !a.receivedAnnexed()) {
            return r;
        }
        return new Rendered(r.title(), r.lang(), r.html(), r.json(), ProcessorAlertAnnexes.annexes(a, words),
                List.of(ProcessorAlertAnnexes.csv(a, words)));
    }

    /** A document's JSON as stored and embedded. */
    public String json(Object data) {
        try {
            return json.writeValueAsString(data);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** An issued authority notification, rendered from its stored JSON (which is kept exactly). */
    public Rendered renderIssued(String body) {
        AuthorityNotification n;
        try {
            n = json.readValue(body, AuthorityNotification.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("an issued version does not read back", e);
        }
        Template t = inLanguage(n.language(), authorityEn, authorityFr);
        return Rendered.of(n.language(), t.data("n", n).setLocale(n.language()).render(), body.getBytes(StandardCharsets.UTF_8));
    }

    /** A processor alert rendered from its JSON as sent (a customer alert's body): the same facts, as a document. */
    public Rendered renderProcessorAlert(String noticeJson) {
        ProcessorAlert a;
        try {
            a = json.readValue(noticeJson, ProcessorAlert.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a processor alert does not read back", e);
        }
        return withAnnexes(Rendered.of(a.language(), inLanguage(a.language(), processorAlertEn, processorAlertFr)
                .data("alert", a).setLocale(a.language()).render(), noticeJson.getBytes(StandardCharsets.UTF_8)), a);
    }

    /** The PDF/A-3u of a rendered document, signed when a keystore is configured. */
    public byte[] pdf(Rendered r, String jsonName) {
        PdfRenderer.Attachment data = new PdfRenderer.Attachment(jsonName, words.of(r.lang(), "attachment", "DATA"),
                "application/json", r.json());
        byte[] pdf = PdfRenderer.render(r.html(), r.title(), r.lang(), data, r.attachments(), r.annexes());
        return signing == null ? pdf : signing.sign(pdf, r.title());
    }
}
