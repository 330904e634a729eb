package app.vigie.web.pages;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import app.vigie.incident.IncidentQueries;

/**
 * The incident page's table of whose tokens reached whom: the customers whose tokens were read down, the customers
 * whose requests read them across, the {@value #TOP} with the most tokens on each side named and the rest summed as
 * "others". Each cell tells another customer's tokens from the same customer's, and tokens delivered in responses
 * from those contained (never delivered) and those whose delivery is not known yet; the tokens of possible exposures
 * (spec 1.3, amendment 3: what was read may have been overwritten while a transfer read it) are a count of their own.
 */
final class ExposureMatrix {
    /** How many customers each side names before summing the rest. */
    static final int TOP = 8;

    private ExposureMatrix() {
    }

    /** The matrix of the tokens summed per pair of tenants, kind and fate (the database sums the exposures). */
    static IncidentPage.Matrix of(List<IncidentQueries.PairTokens> pairs) {
        Map<String, Long> asVictim = new HashMap<>();
        Map<String, Long> asReader = new HashMap<>();
        for (IncidentQueries.PairTokens e : pairs) {
            asVictim.merge(e.victimTenant(), e.tokens(), Long::sum);
            asReader.merge(e.readerTenant(), e.tokens(), Long::sum);
        }
        List<String> rows = top(asVictim);
        List<String> cols = top(asReader);
        boolean otherRows = asVictim.size() > rows.size();
        boolean otherCols = asReader.size() > cols.size();
        int width = cols.size() + (otherCols ? 1 : 0);
        int height = rows.size() + (otherRows ? 1 : 0);
        long[][][] sums = new long[height][width][7];
        Map<String, Integer> rowIndex = index(rows);
        Map<String, Integer> colIndex = index(cols);
        for (IncidentQueries.PairTokens e : pairs) {
            int r = rowIndex.getOrDefault(e.victimTenant(), rows.size());
            int c = colIndex.getOrDefault(e.readerTenant(), cols.size());
            int base = e.intra() ? 3 : 0;
            int fate = e.delivered() == null ? 2 : e.delivered() ? 0 : 1;
            sums[r][c][e.possible() ? 6 : base + fate] += e.tokens();
        }
        List<IncidentPage.MatrixRow> out = new ArrayList<>();
        for (int r = 0; r < height; r++) {
            List<IncidentPage.MatrixCell> cells = new ArrayList<>();
            for (int c = 0; c < width; c++) {
                long[] s = sums[r][c];
                cells.add(new IncidentPage.MatrixCell(s[0], s[1], s[2], s[3], s[4], s[5], s[6]));
            }
            out.add(new IncidentPage.MatrixRow(r < rows.size() ? rows.get(r) : null, cells));
        }
        List<String> columns = new ArrayList<>(cols);
        if (otherCols) {
            columns.add(null);
        }
        return new IncidentPage.Matrix(columns, out, asVictim.size(), asReader.size());
    }

    /** The customers with the most tokens on one side, the most first (by name on a tie), at most {@link #TOP}. */
    private static List<String> top(Map<String, Long> tokens) {
        return tokens.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder())
                        .thenComparing(Map.Entry.comparingByKey()))
                .limit(TOP).map(Map.Entry::getKey).toList();
    }

    private static Map<String, Integer> index(List<String> names) {
        Map<String, Integer> out = new HashMap<>();
        for (int i = 0; i < names.size(); i++) {
            out.put(names.get(i), i);
        }
        return out;
    }
}
