package app.vigie.notice;

import java.util.Locale;

import jakarta.ws.rs.core.Response;

import app.vigie.problem.ProblemException;

/** The reader's language for a document, checked, and a document answered (the zone: {@code time.Zones}). */
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

    /** A document as the HTTP answer: inline, or an attachment when it has a file name. */
    public static Response answer(Download d) {
        Response.ResponseBuilder b = Response.ok(d.body(), d.mediaType());
        if (d.fileName() != null) {
            b.header("Content-Disposition", "attachment; filename=\"" + d.fileName() + "\"");
        }
        return b.build();
    }
}
