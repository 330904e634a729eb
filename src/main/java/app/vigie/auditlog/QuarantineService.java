package app.vigie.auditlog;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import io.agroal.api.AgroalDataSource;

import app.vigie.auditlog.intake.Source;
import app.vigie.auditlog.intake.Utf8;
import app.vigie.auditlog.store.QuarantineStore;
import app.vigie.db.Transactions;
import app.vigie.db.UnitOfWork;
import app.vigie.problem.ProblemException;

/**
 * Every rejected record, kept with its reason: read newest first, paged, filtered by where it came from (http, kafka,
 * file, or apply: accepted, then found impossible in its stream's state), each with a preview of its first bytes;
 * or one with the bytes kept of it.
 */
@ApplicationScoped
public class QuarantineService {

    @Inject
    AgroalDataSource dataSource;

    /**
     * One kept line in a list: {@code preview} is the text of its first bytes (invalid UTF-8 shown as U+FFFD, an
     * ellipsis when there is more); {@code raw_length} and {@code raw_sha256} are those of the whole line received.
     */
    public record Item(long id, Instant receivedAt, String source, String sourceName, long position, String reason,
            String preview, long rawLength, String rawSha256, String stream, String boot, Long seq) {
    }

    /**
     * One kept line: {@code raw} is the text of the bytes kept; {@code raw_base64} those bytes when they are not
     * UTF-8; {@code raw_truncated} when fewer bytes were kept than {@code raw_length}.
     */
    public record Detail(long id, Instant receivedAt, String source, String sourceName, long position, String reason,
            String raw, String rawBase64, boolean rawTruncated, long rawLength, String rawSha256, String stream,
            String boot, Long seq) {
    }

    /** A page of the quarantine. */
    public record Page(List<Item> items, int page, int size, long total) {
    }

    /** Page {@code page} (from 1) of {@code size} records from {@code source} (all when null), newest first. */
    @UnitOfWork
    public Page page(int page, int size, String source) throws SQLException {
        if (source != null && !QuarantineStore.APPLY.equals(source)
                && Arrays.stream(Source.values()).noneMatch(s -> s.label().equals(source))) {
            throw new ProblemException(400, "query parameter 'source' must be http, kafka, file or apply");
        }
        try (Connection c = Transactions.connection(dataSource)) {
            return new Page(
                    QuarantineStore.page(c, source, (page - 1) * size, size).stream().map(QuarantineService::item)
                    .toList(),
                    page, size, QuarantineStore.count(c, source));
        }
    }

    /** One record with the bytes kept of it; 404 when there is none. */
    @UnitOfWork
    public Detail one(long id) throws SQLException {
        QuarantineStore.Entry e;
        try (Connection c = Transactions.connection(dataSource)) {
            e = QuarantineStore.one(c, id).orElseThrow(() -> new ProblemException(404, "no quarantined record " + id));
        }
        boolean utf8 = Utf8.firstInvalid(e.raw(), 0, e.raw().length) < 0;
        return new Detail(e.id(), e.receivedAt(), e.source(), e.sourceName(), e.position(), e.reason(),
                utf8 ? new String(e.raw(), StandardCharsets.UTF_8) : null,
                utf8 ? null : Base64.getEncoder().encodeToString(e.raw()), e.truncated(), e.rawLength(),
                e.rawSha256(), e.stream(), e.boot(), e.seq());
    }

    /**
     * Keeps one record in a transaction of its own (a Kafka record whose processing kept failing); kept once per
     * source position, so keeping it again changes nothing.
     */
    @UnitOfWork
    public void keep(QuarantineStore.Entry entry) throws SQLException {
        try (Connection c = Transactions.connection(dataSource)) {
            QuarantineStore.keep(c, List.of(entry));
        }
    }

    static Item item(QuarantineStore.Entry e) {
        String preview = new String(e.raw(), StandardCharsets.UTF_8) + (e.truncated() ? "…" : "");
        return new Item(e.id(), e.receivedAt(), e.source(), e.sourceName(), e.position(), e.reason(), preview,
                e.rawLength(), e.rawSha256(), e.stream(), e.boot(), e.seq());
    }
}
