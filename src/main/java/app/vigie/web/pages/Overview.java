package app.vigie.web.pages;

import java.util.List;

import app.vigie.notice.When;

/** The dashboard's overview: open incidents, each with its next deadline ticking in the browser. */
public record Overview(String language, String zone, String user, When generatedAt, List<Line> incidents) {

    /** An open incident: its next deadline ({@code nextDue} null when none is running) and what it is. */
    public record Line(String id, String deployment, String status, String classification, When detectedAt,
            long leakedResponses, int affectedTenants, When nextDue, String nextRule, String nextTenant,
            String nextStatus, int open, int late) {
    }
}
