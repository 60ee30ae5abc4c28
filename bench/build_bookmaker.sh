#!/usr/bin/env bash
# Build the original JavaChallenge 2015 "Falldown" engine (Bookmaker) from source, for the
# side-by-side timing in bench_falldown.py ($FALLDOWN_BOOKMAKER).
#
# Sources (pinned):
#   ENGINE_CHECKOUT: github.com/D4prog/JavaChallenge2015 at commit f223740 ("axis+")
#   ARENA_CHECKOUT:  github.com/exKAZUu/GameAIArena at tag v2.0.6 (the engine's pom dependency)
#   e.g. git -C JavaChallenge2015 archive f223740 | tar -x -C /tmp/jc2015
#        git -C GameAIArena archive v2.0.6 | tar -x -C /tmp/gaiarena
# Debian packages (jars from /usr/share/java; no Maven, no network):
#   a JDK (tested: OpenJDK 17), libcommons-cli-java (1.5.0; the pom says 1.3.1),
#   libjackson2-databind-java (2.14, pulls jackson-core/-annotations; the pom says 2.6.3),
#   libcommons-lang-java (2.6, used by GameAIArena).
# javac is given only the engine's sources and finds the few GameAIArena classes they use on
# -sourcepath, so GameAIArena's GUI/sound classes (guava, jlayer) are not needed.
#
# One source change, made in a copy under OUT_DIR/src (the checkout is untouched):
#   log/Logger.java  `catch (JsonProcessingException e)` -> `catch (IOException e)`
#   Why: Debian's security update of jackson-databind (2.14.0-1+deb12u1) declares
#   ObjectMapper.writeValueAsString `throws JsonProcessingException, IOException` (upstream:
#   only JsonProcessingException, a subclass of IOException), so the original does not compile.
#   Behaviour is unchanged: the handler (print the stack trace) catches at least what it did.
#
# Usage: bench/build_bookmaker.sh ENGINE_CHECKOUT ARENA_CHECKOUT OUT_DIR
# Prints the command line that runs the engine (it writes ./log.txt in its working folder).
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: $0 ENGINE_CHECKOUT ARENA_CHECKOUT OUT_DIR" >&2; exit 2; }
engine=$(realpath "$1") arena=$(realpath "$2")
mkdir -p "$3" && out=$(realpath "$3")
jars=/usr/share/java
cp="$jars/commons-cli.jar:$jars/commons-lang.jar:$jars/jackson-databind.jar:$jars/jackson-core.jar:$jars/jackson-annotations.jar"

rm -rf "$out/src" "$out/classes"
cp -r "$engine/src/main/java" "$out/src"
logger="$out/src/net/aicomp/javachallenge2015/log/Logger.java"
sed -i 's/catch (JsonProcessingException e)/catch (IOException e)/' "$logger"
[ "$(diff "$engine/src/main/java/net/aicomp/javachallenge2015/log/Logger.java" "$logger" | grep -c '^>')" = 1 ] \
  || { echo "Logger.java is not the expected f223740 version" >&2; exit 1; }

# --release 8: the pom's source/target 1.8 (Java 8 APIs only).
javac --release 8 -nowarn -encoding UTF-8 -d "$out/classes" -cp "$cp" \
  -sourcepath "$arena/src/main/java" $(find "$out/src" -name '*.java' | sort)
echo "java -cp $out/classes:$cp net.aicomp.javachallenge2015.Bookmaker"
