package app.vigie.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;

import app.vigie.testing.Api;
import app.vigie.testing.OpenMetrics;

/**
 * /q/metrics (docs/operations.md, "Metrics"): readable by an auditor or admin account only; a leaking log moves the
 * intake counter by its records, times its chunks and its detection, and the state gauges (refreshed here rather
 * than waited for) count the incident, its exposure and its leaked response; every vigie_* series that the alert
 * rules and the Grafana dashboard in deploy/ name is exported, so that no rule watches a series that never comes.
 */
@QuarkusTest
class MetricsTest {
    private static final Pattern SERIES = Pattern.compile("\\bvigie_[a-z_]+");

    @Inject
    StateGauges gauges;

    @Test
    void aLeakingLogMovesTheIntakeTheDetectionAndTheStateGauges() {
        gauges.refresh();
        String before = scrape();
        double applied = value(before, "vigie_intake_records_total{outcome=\"applied\"}");
        double chunks = value(before, "vigie_intake_chunk_seconds_count");
        double stored = value(before, "vigie_detection_store_seconds_count");
        double open = value(before, "vigie_incidents{status=\"open\"}");
        double exposures = value(before, "vigie_exposures");
        double leaked = value(before, "vigie_leaked_responses");

        String p = Api.uniquePrefix();
        Api.leakingIncident(p, p + "-acme", p + "-globex");  // 7 records, one leaked response
        gauges.refresh();
        String after = scrape();
        assertThat(value(after, "vigie_intake_records_total{outcome=\"applied\"}")).isEqualTo(applied + 7);
        assertThat(value(after, "vigie_intake_chunk_seconds_count")).isGreaterThan(chunks);
        assertThat(value(after, "vigie_detection_store_seconds_count")).isGreaterThan(stored);
        assertThat(value(after, "vigie_incidents{status=\"open\"}")).isEqualTo(open + 1);
        assertThat(value(after, "vigie_exposures")).isEqualTo(exposures + 1);
        assertThat(value(after, "vigie_leaked_responses")).isEqualTo(leaked + 1);
        assertThat(after).contains("# HELP vigie_intake_records Audit records taken in")
                .contains("\njvm_memory_used_bytes{").contains("\nhttp_server_requests_seconds_count{")
                .contains("\nagroal_active_count{");
    }

    @Test
    void onlyAnAuditorOrAnAdminReadsThem() {
        String p = Api.uniquePrefix();
        Api.account(p + "-analyst", "analyst", null);
        Api.account(p + "-auditor", "auditor", null);
        RestAssured.given().get("/q/metrics").then().statusCode(401);
        Api.as(p + "-analyst", p + "-analyst-password").get("/q/metrics").then().statusCode(403);
        Api.as(p + "-auditor", p + "-auditor-password").get("/q/metrics").then().statusCode(200);
    }

    @Test
    void everySeriesTheAlertRulesAndTheDashboardNameIsExported() throws IOException {
        gauges.refresh();
        String metrics = scrape();
        Set<String> exported = new TreeSet<>();
        Matcher m = Pattern.compile("(?m)^(vigie_[a-z_]+)[{ ]").matcher(metrics);
        while (m.find()) {
            exported.add(m.group(1));
        }
        for (Path f : new Path[] {Path.of("deploy/prometheus/vigie-alerts.yml"),
                Path.of("deploy/grafana/vigie-dashboard.json")}) {
            Set<String> named = new TreeSet<>();
            Matcher n = SERIES.matcher(Files.readString(f));
            while (n.find()) {
                named.add(n.group());
            }
            assertThat(named).as("series named by " + f).isNotEmpty();
            // the Kafka intake's lag exists where the Kafka intake runs: KafkaIntakeTest checks it
            named.remove("vigie_kafka_lag");
            named.remove("vigie_kafka_paused_seconds");
            named.remove("vigie_kafka_unreadable_topics");
            assertThat(exported).as("series exported, against those " + f + " names").containsAll(named);
        }
    }

    private static String scrape() {
        return Api.admin().get("/q/metrics").then().statusCode(200).extract().asString();
    }

    /** The value of one series (its name and labels as the exposition writes them, labels sorted); NaN: none. */
    private static double value(String metrics, String series) {
        int brace = series.indexOf('{');
        String name = brace < 0 ? series : series.substring(0, brace);
        Set<String> labels = brace < 0 ? Set.of()
                : Set.of(series.substring(brace + 1, series.length() - 1).split(","));
        for (String line : metrics.split("\n")) {
            if (line.startsWith("#") || !(line.startsWith(name + "{") || line.startsWith(name + " "))) {
                continue;
            }
            String sample = OpenMetrics.sample(line);
            int space = sample.lastIndexOf(' ');
            String head = sample.substring(0, space);
            Set<String> got = head.contains("{")
                    ? Set.of(head.substring(head.indexOf('{') + 1, head.length() - 1).split(","))
                    : Set.of();
            if (got.containsAll(labels)) {
                return Double.parseDouble(sample.substring(space + 1));
            }
        }
        return Double.NaN;
    }
}
