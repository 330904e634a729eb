package app.vigie.notice;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.qute.Engine;
import io.quarkus.qute.Template;
import io.quarkus.runtime.StartupEvent;

/**
 * A document's three forms: its page (HTML from templates/notices/, in its language), its data (JSON, kept exactly as
 * stored or sent) and its PDF/A-3u with that JSON inside, signed when a keystore is configured.
 */
@ApplicationScoped
public class DocumentRenderer {

    @Inject
    Engine engine;

    @Inject
    ObjectMapper json;

    @Inject
    Words words;

    @ConfigProperty(name = "vigie.documents.signing.keystore")
    Optional<String> keystore;

    @ConfigProperty(name = "vigie.documents.signing.password")
    Optional<String> keystorePassword;

    @ConfigProperty(name = "vigie.documents.signing.alias")
    Optional<String> keyAlias;

    private PdfSigning signing;

    /** Reads the signing key when one is configured: a keystore that cannot be read stops the start. */
    void start(@Observes StartupEvent e) {
        if (keystore.isPresent()) {
            signing = PdfSigning.load(Path.of(keystore.get()),
                    keystorePassword.orElse("").toCharArray(), keyAlias.orElse(null));
            Logger.getLogger(DocumentRenderer.class).infof("PDFs are signed with the key of %s",
                    keystore.get());
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

    /** The violation register's export. */
    public static final String REGISTER = "register";

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

    /** Renders a document's data with its template {@code notices/<kind>.<lang>.html}. */
    public Rendered render(String kind, String lang, Object data, String param) {
        Template t = engine.getTemplate("notices/" + kind + "." + lang + ".html");
        if (t == null) {
            throw new IllegalStateException("no template notices/" + kind + "." + lang + ".html");
        }
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
        Template t = engine.getTemplate("notices/" + NoticeService.AUTHORITY + "." + n.language() + ".html");
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
        return withAnnexes(Rendered.of(a.language(), engine.getTemplate("notices/" + PROCESSOR_ALERT + "."
                + a.language() + ".html").data("alert", a).setLocale(a.language()).render(), noticeJson.getBytes(StandardCharsets.UTF_8)), a);
    }

    /** The PDF/A-3u of a rendered document, signed when a keystore is configured. */
    public byte[] pdf(Rendered r, String jsonName) {
        PdfRenderer.Attachment data = new PdfRenderer.Attachment(jsonName, words.of(r.lang(), "attachment", "DATA"),
                "application/json", r.json());
        byte[] pdf = PdfRenderer.render(r.html(), r.title(), r.lang(), data, r.attachments(), r.annexes());
        return signing == null ? pdf : signing.sign(pdf, r.title());
    }
}
