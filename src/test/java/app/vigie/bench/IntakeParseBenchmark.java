package app.vigie.bench;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import app.vigie.auditlog.intake.IncomingLine;
import app.vigie.auditlog.intake.LineParser;
import app.vigie.auditlog.intake.Source;
import app.vigie.runtime.workload.BenignWorkload;

/** Lines/s of the intake's judging of one line alone (UTF-8, JSON, every field), on one thread. */
public final class IntakeParseBenchmark {

    public static void main(String[] args) {
        long records = args.length > 0 ? Long.parseLong(args[0]) : 500_000;
        List<byte[]> lines = new ArrayList<>();
        new BenignWorkload(8, 1).generate(records, l -> lines.add(l.getBytes(StandardCharsets.UTF_8)));
        List<byte[]> pd = new ArrayList<>();
        ScaledExample.lines(records).forEach(l -> pd.add(l.getBytes(StandardCharsets.UTF_8)));
        LineParser parser = new LineParser();
        for (int round = 1; round <= 3; round++) {
            run("benign", parser, lines, round);
            run("prefill/decode example", parser, pd, round);
        }
    }

    private static void run(String name, LineParser parser, List<byte[]> lines, int round) {
        long start = System.nanoTime();
        long ok = 0;
        for (int i = 0; i < lines.size(); i++) {
            if (parser.parse(IncomingLine.of(Source.HTTP, "b", i + 1, lines.get(i))).rejection() == null) {
                ok++;
            }
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf("%s, round %d: %,.0f lines/s judged (%,d valid)%n", name, round, lines.size() / seconds, ok);
    }
}
