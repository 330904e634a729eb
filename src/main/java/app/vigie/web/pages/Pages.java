package app.vigie.web.pages;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import jakarta.ws.rs.core.SecurityContext;

/** What every page class shares: the signed-in user's name, blank for null, a filter's query string. */
public final class Pages {
    private Pages() {
    }

    public static String user(SecurityContext who) {
        return who.getUserPrincipal().getName();
    }

    public static String nz(String s) {
        return s == null ? "" : s;
    }

    /** A query string of the non-blank pairs (name, value, ...), values URL-encoded. */
    public static String query(String... pairs) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < pairs.length; i += 2) {
            if (pairs[i + 1] != null && !pairs[i + 1].isBlank()) {
                out.add(pairs[i] + "=" + URLEncoder.encode(pairs[i + 1].strip(), StandardCharsets.UTF_8));
            }
        }
        return String.join("&", out);
    }
}
