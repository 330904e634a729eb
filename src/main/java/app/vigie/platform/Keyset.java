package app.vigie.platform;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.function.Function;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriBuilder;
import jakarta.ws.rs.core.UriInfo;

import app.vigie.problem.Params;
import app.vigie.problem.ProblemException;

/**
 * Keyset paging of an API list (docs/api.md, "Paging"): {@code after} is the cursor of the last item of the page
 * before, {@code limit} the page's size. One more item than the page is read, so that the answer carries
 * {@code Link: <…>; rel="next"} exactly when another page follows. A page does not shift when items are added in
 * front of it, unlike {@code offset}.
 *
 * @param after the cursor, null for the first page
 * @param limit how many items a page holds
 */
public record Keyset(String after, int limit) {
    /** A page's size when none is asked for. */
    public static final int DEFAULT_LIMIT = 100;
    /** The largest page. */
    public static final int MAX_LIMIT = 1000;

    /** What the OpenAPI description says of a paged list's answer. */
    public static final String PAGE_DESCRIPTION = "A page of the list (docs/api.md, Paging); a Link header with"
            + " rel=\"next\" when another follows";
    /** What the OpenAPI description says of its Link header. */
    public static final String LINK_DESCRIPTION = "<URL>; rel=\"next\": the next page";

    /** The paging asked for, or null when neither {@code after} nor {@code limit} is given (the whole list). */
    public static Keyset of(String after, String limit) {
        if (after == null && !sized(limit)) {
            return null;
        }
        if (after != null && after.isBlank()) {
            throw new ProblemException(400, "query parameter 'after' must be the cursor of an item, got ''");
        }
        return new Keyset(after == null ? null : after.strip(), limit(limit));
    }

    /**
     * The page asked for, the first of {@value #DEFAULT_LIMIT} when neither {@code after} nor {@code limit} is given:
     * for the lists that never come whole (an incident's exposures and findings, issue 41).
     */
    public static Keyset page(String after, String limit) {
        Keyset page = of(after, limit);
        return page == null ? new Keyset(null, DEFAULT_LIMIT) : page;
    }

    /** The page's size asked for: 1 to {@value #MAX_LIMIT}, {@value #DEFAULT_LIMIT} when none; or a 400. */
    public static int limit(String limit) {
        return sized(limit) ? (int) Params.number("limit", limit, 1, MAX_LIMIT) : DEFAULT_LIMIT;
    }

    /** Whether a size is given (an empty form field gives none). */
    private static boolean sized(String limit) {
        return limit != null && !limit.isBlank();
    }

    /** How many rows to read: one more than the page, to know whether another follows. */
    public int fetch() {
        return limit + 1;
    }

    /**
     * The answer: the first {@code limit} of {@code rows} (read with {@link #fetch()}) and, when there were more, a
     * link to the next page: this request's URI with {@code after} set to the last item's cursor.
     */
    public <T> Response answer(List<T> rows, Function<T, String> cursor, UriInfo uri) {
        return answer(rows, cursor, uri.getRequestUriBuilder());
    }

    /** {@link #answer(List, Function, UriInfo)} with the next page's link made from {@code base}. */
    public <T> Response answer(List<T> rows, Function<T, String> cursor, UriBuilder base) {
        return page(rows, limit, last -> base.clone().replaceQueryParam("after", cursor.apply(last)).build());
    }

    /** The same answer for paging by {@code offset}: the next page's link moves the offset by the page. */
    public static <T> Response byOffset(List<T> rows, int limit, int offset, UriInfo uri) {
        return page(rows, limit, last -> uri.getRequestUriBuilder()
                .replaceQueryParam("offset", offset + limit).replaceQueryParam("limit", limit).build());
    }

    private static <T> Response page(List<T> rows, int limit, Function<T, URI> next) {
        if (rows.size() <= limit) {
            return Response.ok(rows).build();
        }
        List<T> page = rows.subList(0, limit);
        return Response.ok(page).link(next.apply(page.get(limit - 1)), "next").build();
    }

    /** A cursor made of several text keys (none holds NUL: the intake refuses control characters), URL-safe. */
    public static String cursor(String... keys) {
        return Base64.getUrlEncoder().withoutPadding()
                .encodeToString(String.join("\u0000", keys).getBytes(StandardCharsets.UTF_8));
    }

    /** The keys of a {@link #cursor(String...)} of {@code n} keys, or a 400 naming {@code after}. */
    public static String[] keys(String cursor, int n) {
        try {
            String[] keys = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8)
                    .split("\u0000", -1);
            if (keys.length == n) {
                return keys;
            }
        } catch (IllegalArgumentException e) {
            // answered below
        }
        throw badCursor(cursor);
    }

    /** A whole number cursor (an id), or a 400 naming {@code after}. */
    public static long id(String cursor) {
        try {
            long id = Long.parseLong(cursor);
            if (id > 0) {
                return id;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw badCursor(cursor);
    }

    public static ProblemException badCursor(String cursor) {
        return new ProblemException(400, "query parameter 'after' must be the cursor of an item of this list (the "
                + "'after' of the Link rel=\"next\" header an earlier page gave), got '" + cursor + "'");
    }
}
