package app.vigie.notice;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

import jakarta.ws.rs.core.Response;

import app.vigie.problem.ProblemException;

/** The reader's language for a document, checked, and a rendered document answered (the zone: {@code time.Zones}). */
public final class Reader {
    private Reader() {
    }

    /** {@code fr} or {@code en}; {@code fallback} when absent; a 400 naming the parameter otherwise. */
    public static String language(String lang, String fallback) {
        if (lang == null || lang.isBlank()) {
            return fallback;
        }
        String l = lang.strip().toLowerCase(Locale.ROOT);
        if (!l.equals("fr") && !l.equals("en")) {
            throw new ProblemException(400, "query parameter 'lang' must be fr or en, got '" + lang + "'");
        }
        return l;
    }

    /** The document as a page, its data or its PDF (a download named {@code file}.pdf). */
    public static Response answer(NoticeService notices, NoticeService.Rendered r, String format, String file) {
        String name = file.replaceAll("[^A-Za-z0-9._-]", "_");
        return switch (format) {
            case "html" -> Response.ok(r.html(), "text/html; charset=UTF-8").build();
            case "json" -> Response.ok(new String(r.json(), StandardCharsets.UTF_8), "application/json").build();
            default -> Response.ok(notices.pdf(r, name + ".json"), "application/pdf")
                    .header("Content-Disposition", "attachment; filename=\"" + name + ".pdf\"").build();
        };
    }
}
