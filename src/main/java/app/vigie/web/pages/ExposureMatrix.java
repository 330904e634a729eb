package app.vigie.web.pages;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import app.vigie.incident.ExposureView;

/** The incident page's picture of who read whose tokens, drawn as an SVG grid. */
final class ExposureMatrix {
    private ExposureMatrix() {
    }

    /** Victims down, recipients across; a cell's shade grows with the order of magnitude of its tokens. */
    static IncidentPage.Matrix of(List<ExposureView> exposures) {
        Map<String, Map<String, Long>> sums = new TreeMap<>();
        Set<String> readers = new TreeSet<>();
        for (ExposureView e : exposures) {
            sums.computeIfAbsent(e.victimTenant(), v -> new TreeMap<>()).merge(e.readerTenant(), e.tokens(),
                    Long::sum);
            readers.add(e.readerTenant());
        }
        int label = 180;
        int top = 120;
        int size = 44;
        List<String> rows = new ArrayList<>(sums.keySet());
        List<String> cols = new ArrayList<>(readers);
        List<IncidentPage.Label> rowLabels = new ArrayList<>();
        List<IncidentPage.Label> colLabels = new ArrayList<>();
        List<IncidentPage.Cell> cells = new ArrayList<>();
        for (int r = 0; r < rows.size(); r++) {
            rowLabels.add(new IncidentPage.Label(label - 8, top + r * size + size / 2 + 5, rows.get(r)));
        }
        for (int k = 0; k < cols.size(); k++) {
            colLabels.add(new IncidentPage.Label(label + k * size + size / 2, top - 8, cols.get(k)));
        }
        for (int r = 0; r < rows.size(); r++) {
            for (int k = 0; k < cols.size(); k++) {
                Long tokens = sums.get(rows.get(r)).get(cols.get(k));
                if (tokens != null) {
                    int shade = (int) Math.min(4, Math.max(0, Math.floor(Math.log10(Math.max(1, tokens)))));
                    cells.add(new IncidentPage.Cell(label + k * size, top + r * size, size - 2, shade, tokens,
                            rows.get(r) + " -> " + cols.get(k) + ": " + tokens, label + k * size + 4,
                            top + r * size + 27));
                }
            }
        }
        return new IncidentPage.Matrix(label + cols.size() * size + 200, top + rows.size() * size + 20, rowLabels,
                colLabels, cells);
    }
}
