package app.vigie.web.pages;

import java.util.List;

import app.vigie.notice.When;

/** The incident page: facts, the exposure matrix (victims x recipients), each tenant's obligations, findings. */
public record IncidentPage(String language, String zone, String user, String id, String deployment, String status,
        String classification, When detectedAt, When firstExposureAt, When lastExposureAt, long leakedResponses,
        Matrix matrix, List<CaseLine> cases, List<FindingLine> findings, int findingsTotal) {

    /** The matrix drawn as an SVG: row and column labels, and a cell for each pair with tokens. */
    public record Matrix(int width, int height, List<Label> rows, List<Label> columns, List<Cell> cells) {
    }

    public record Label(int x, int y, String text) {
    }

    /** A cell: its place, its shade (0 lightest to 4 darkest, by the order of magnitude of its tokens) and count. */
    public record Cell(int x, int y, int size, int shade, long tokens, String title, int textX, int textY) {
    }

    public record CaseLine(String tenant, String controller, List<Duty> obligations) {
    }

    public record Duty(String rule, String recipient, String status, When dueAt, String basis) {
    }

    public record FindingLine(String rule, String subject, String stream, long firstSeq, When seenAt) {
    }
}
