# Sources named through variables, a source compiled and linked with objects in one command
# (written for this test).
HIPCC = /opt/rocm/bin/hipcc
SOURCES = main.cpp
SRCS = $(SOURCES)
OBJS = helper.o

app: $(OBJS)
	$(HIPCC) -O3 $(SRCS) -o $@

app2: main.cpp helper.o
	$(HIPCC) -O3 -o $@ $< $(OBJS)

helper.o: helper.cpp
	$(HIPCC) -O3 -c $< -o $@
