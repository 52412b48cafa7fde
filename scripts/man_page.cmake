# Writes the man page ptoverify.1 with help2man from the CLI itself: the top-level --help and
# --version, and every subcommand's --help as a section, so the page cannot drift from the tool.
# Usage: cmake -DEXE=path/to/ptoverify -DOUT=ptoverify.1 -DHELP2MAN=/usr/bin/help2man -P man_page.cmake
execute_process(COMMAND ${EXE} --help OUTPUT_VARIABLE top RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${EXE} --help failed")
endif()
string(FIND "${top}" "Subcommands:" at)
string(SUBSTRING "${top}" ${at} -1 subcommands)
string(REGEX MATCHALL "\n  [a-z-]+ " names "${subcommands}")
set(include "[SUBCOMMANDS]\n")
foreach(entry ${names})
  string(STRIP "${entry}" name)
  execute_process(COMMAND ${EXE} ${name} --help OUTPUT_VARIABLE help)
  string(REPLACE "\\" "\\e" help "${help}")
  string(REGEX REPLACE "\n([.'])" "\n\\\\&\\1" help "\n${help}")
  string(APPEND include ".SS ${name}\n.nf\n${help}\n.fi\n")
endforeach()
string(APPEND include "[SEE ALSO]\n.B ptoverify explain RULE\nprints a rule's page; the pages are also in\n.IR /usr/share/doc/ptoverify/rules .\n")
file(WRITE ${OUT}.h2m "${include}")
execute_process(COMMAND ${HELP2MAN} --no-info --no-discard-stderr
                        --name "static verifier for generated Ascend NPU kernels"
                        --include ${OUT}.h2m --output ${OUT} ${EXE}
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "help2man failed")
endif()
