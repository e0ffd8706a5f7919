"""Developer tools: they write the files in this repository that the code reads or a maker
uses (the layouts, the drawings, the generated parts of the guide). Not shipped."""
