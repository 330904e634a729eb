package app.vigie.incident;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;

import app.vigie.platform.Keyset;
import app.vigie.testing.Api;
import app.vigie.web.IncidentCockpitTest;

/**
 * Keyset paging (docs/api.md, "Paging"): following each page's {@code Link rel="next"} walks the whole list exactly
 * once, in its order, for the incidents, an incident's exposures and findings, and the audit trail; the last page has
 * no link; a page does not shift when an incident is added in front of it; bad cursors are 400s naming 'after'.
 */
@QuarkusTest
class KeysetPagingTest {
    private static final Pattern NEXT = Pattern.compile("<([^>]+)>;\\s*rel=\"next\"");

    @Test
    void followingTheLinksWalksEveryIncidentOnceAndAddedIncidentsDoNotShiftAPage() {
        for (int i = 0; i < 3; i++) {
            Api.leakingIncident(Api.uniquePrefix(), "k-acme", "k-globex");
        }
        List<String> whole = Api.admin().get("/api/incidents").then().statusCode(200).extract().jsonPath()
                .getList("id");
        List<String> walked = walk("/api/incidents?limit=2", "id");
        assertThat(walked).isEqualTo(whole);

        // the second page, asked for after the first page's last incident, stays the same when a newer one arrives;
        // by offset it shifts by one
        Response first = Api.admin().get("/api/incidents?limit=2");
        String next = next(first);
        List<String> secondBefore = Api.admin().urlEncodingEnabled(false).get(next).then().statusCode(200).extract().jsonPath().getList("id");
        String added = Api.leakingIncident(Api.uniquePrefix(), "k-acme", "k-globex");
        assertThat(Api.admin().get("/api/incidents?limit=1").then().extract().jsonPath().getList("id"))
                .containsExactly(added);
        assertThat(Api.admin().urlEncodingEnabled(false).get(next).then().statusCode(200).extract().jsonPath().<String>getList("id"))
                .isEqualTo(secondBefore);
        assertThat(Api.admin().get("/api/incidents?limit=2&offset=2").then().extract().jsonPath()
                .<String>getList("id").get(0)).isEqualTo(whole.get(1));

        // offset pages link to the next offset; keyset and offset do not combine
        assertThat(next(Api.admin().get("/api/incidents?limit=2&offset=1"))).contains("offset=3").contains("limit=2");
        Api.admin().get("/api/incidents?after=" + whole.get(0) + "&offset=1").then().statusCode(400)
                .body("detail", containsString("'after'"));
        for (String bad : List.of("x", "00000000-0000-0000-0000-000000000000")) {
            Api.admin().get("/api/incidents?limit=2&after=" + bad).then().statusCode(400)
                    .body("detail", containsString("'after'"));
        }
        // a status filter pages within itself
        List<String> open = Api.admin().get("/api/incidents?status=OPEN").then().extract().jsonPath().getList("id");
        assertThat(walk("/api/incidents?status=OPEN&limit=3", "id")).isEqualTo(open);
    }

    @Test
    void anIncidentsExposuresAndFindingsArePagedInTheirOrder() {
        String p = Api.uniquePrefix();
        String id = IncidentCockpitTest.incidentWithManyLeaks(p, p + "-acme", p + "-globex", 7);
        String base = "/api/incidents/" + id;
        List<String> exposures = Api.admin().get(base + "/exposures").then().statusCode(200).extract().jsonPath()
                .getList("reader_request");
        assertThat(exposures).hasSize(8);
        assertThat(walk(base + "/exposures?limit=3", "reader_request")).isEqualTo(exposures);
        List<Integer> findings = Api.admin().get(base + "/findings").then().statusCode(200).extract().jsonPath()
                .getList("id");
        assertThat(findings).hasSize(8);
        assertThat(walk(base + "/findings?limit=3", "id")).isEqualTo(findings);
        // exactly a page's worth: no link to an empty page
        assertThat(Api.admin().get(base + "/findings?limit=8").header("Link")).isNull();
        for (String bad : List.of("exposures?after=%25%25", "exposures?after=YQ", "findings?after=x",
                "findings?after=-3", "findings?limit=0", "exposures?limit=1001")) {
            Api.admin().get(base + "/" + bad).then().statusCode(400).body("detail", containsString("'"));
        }
        Api.admin().get("/api/incidents/00000000-0000-0000-0000-000000000000/findings?limit=2").then()
                .statusCode(404);
    }

    /**
     * Issue 41, point 6: without {@code limit}, an incident's exposures and findings come as their first page of
     * {@value Keyset#DEFAULT_LIMIT} with its link to the next, never the whole list in one answer; following the links
     * still reaches every one, once, in the list's order.
     */
    @Test
    void withoutALimitAnIncidentsExposuresAndFindingsComeAsTheirFirstPage() {
        String p = Api.uniquePrefix();
        int many = Keyset.DEFAULT_LIMIT + 20;
        String id = IncidentCockpitTest.incidentWithManyLeaks(p, p + "-acme", p + "-globex", many);
        String base = "/api/incidents/" + id;
        for (String list : List.of("exposures", "findings")) {
            Response first = Api.admin().get(base + "/" + list);
            first.then().statusCode(200);
            assertThat(first.jsonPath().getList("$")).as(list + " without a limit").hasSize(Keyset.DEFAULT_LIMIT);
            assertThat(next(first)).as(list + ": the link to the next page").isNotNull().contains("after=");
            String field = list.equals("exposures") ? "reader_request" : "id";
            List<Object> walked = walk(base + "/" + list, field);
            assertThat(walked).as(list + " walked from the first page without a limit").hasSize(many + 1)
                    .doesNotHaveDuplicates()
                    .isEqualTo(walk(base + "/" + list + "?limit=" + Keyset.MAX_LIMIT, field));
            assertThat(Api.admin().get(base + "/" + list).jsonPath().getList(field))
                    .isEqualTo(walked.subList(0, Keyset.DEFAULT_LIMIT));
        }
    }

    @Test
    void theAuditTrailPagesBackByItsLinks() {
        String id = Api.leakingIncident(Api.uniquePrefix(), "k-acme", "k-globex");
        for (int i = 0; i < 5; i++) {
            Api.admin().contentType("application/json").body("{\"text\":\"step " + i + "\"}")
                    .post("/api/incidents/" + id + "/measures").then().statusCode(201);
        }
        String events = "/api/audit-trail?target=incident:" + id;
        List<Integer> whole = Api.admin().get(events).then().statusCode(200).extract().jsonPath().getList("id");
        assertThat(whole).hasSizeGreaterThanOrEqualTo(5);
        assertThat(walk(events + "&limit=2", "id")).isEqualTo(whole);
        // before= (the older form) and after= give the same page, and its link says after=
        String cursor = String.valueOf(whole.get(1));
        Response before = Api.admin().get(events + "&limit=2&before=" + cursor);
        assertThat(before.jsonPath().<Integer>getList("id")).isEqualTo(whole.subList(2, 4))
                .isEqualTo(Api.admin().get(events + "&limit=2&after=" + cursor).jsonPath().<Integer>getList("id"));
        assertThat(next(before)).contains("after=" + whole.get(3)).doesNotContain("before=");
        Api.admin().get("/api/audit-trail?before=3&after=3").then().statusCode(400)
                .body("detail", containsString("'after'"));
    }

    /** Every item's {@code field} over the pages from {@code first} on, following Link rel="next". */
    private static <T> List<T> walk(String first, String field) {
        List<T> out = new ArrayList<>();
        String url = first;
        int pages = 0;
        while (url != null) {
            // the link is already encoded as it must be sent
            Response r = Api.admin().urlEncodingEnabled(false).get(url);
            r.then().statusCode(200);
            List<T> page = r.jsonPath().getList(field);
            assertThat(page).as("page " + pages + " of " + first).isNotEmpty();
            out.addAll(page);
            url = next(r);
            assertThat(pages++).as("pages of " + first).isLessThan(10_000);
        }
        return out;
    }

    private static String next(Response r) {
        String link = r.header("Link");
        if (link == null) {
            return null;
        }
        Matcher m = NEXT.matcher(link);
        assertThat(m.find()).as("a rel=next link in " + link).isTrue();
        return m.group(1);
    }
}
